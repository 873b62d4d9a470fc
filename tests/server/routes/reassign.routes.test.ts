import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import { staffMessages } from '../../../contract/staff';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { insertLead, optionId } from './staff-support';

let t: TestApp;
let admin: Account;
let manager: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  manager = await createAccount(t.app, admin, Role.Manager);
});
afterAll(() => t.close());

const post = (url: string, payload: object, account: Account = admin) =>
  t.app.inject({ method: 'POST', url, payload, headers: bearer(account) });
const reassign = (payload: object, account: Account = admin) => post('/api/Admin/reassign', payload, account);
const employee = () => createAccount(t.app, admin, Role.Employee);
const boardOf = async (account: Account): Promise<number[]> =>
  (await t.app.inject({ url: '/api/Admin/leads', headers: bearer(account) }))
    .json()
    .map((l: { leadID: number }) => l.leadID)
    .sort((a: number, b: number) => a - b);
const moves = (leadId: number) =>
  t.app.deps.db
    .selectFrom('lead_assignments')
    .select(['from_user_id', 'to_user_id', 'by_user_id', 'at'])
    .where('lead_id', '=', leadId)
    .execute();
/** Makes every other active employee inactive, so spreads only see the ones a test creates. */
async function onlyThese(...keep: Account[]) {
  await t.app.deps.db
    .updateTable('users')
    .set({ is_active: 0 })
    .where('role_id', '=', Role.Employee)
    .where(
      'id',
      'not in',
      keep.map((k) => k.id),
    )
    .execute();
}

describe('POST /api/Admin/reassign', () => {
  it("moves all of an employee's live leads to one employee and records each move", async () => {
    const from = await employee();
    const to = await employee();
    const leads = [await insertLead(t.app, from), await insertLead(t.app, from)];
    const gone = await insertLead(t.app, from, { deleted: true });
    const res = await reassign({ fromEmployeeId: from.id, toEmployeeId: to.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ reassigned: 2, perEmployee: [{ employeeId: to.id, count: 2 }] });
    // The old holder's board no longer lists them (its next refresh drops them); the new one does.
    expect(await boardOf(from)).toEqual([]);
    expect(await boardOf(to)).toEqual(leads);
    expect(await moves(leads[0]!)).toEqual([
      { from_user_id: from.id, to_user_id: to.id, by_user_id: admin.id, at: expect.any(String) },
    ]);
    expect(await moves(gone)).toEqual([]);
  });

  it('moves only the selected leads, all or nothing', async () => {
    const from = await employee();
    const to = await employee();
    const [a, b, c] = [
      await insertLead(t.app, from),
      await insertLead(t.app, from),
      await insertLead(t.app, from),
    ];
    const notTheirs = await insertLead(t.app, to);
    const refused = await reassign({ fromEmployeeId: from.id, toEmployeeId: to.id, leadIds: [a, notTheirs] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(staffMessages.leadsMoved);
    expect(await boardOf(from)).toEqual([a, b, c]);
    expect(await moves(a!)).toEqual([]);

    const res = await reassign({ fromEmployeeId: from.id, toEmployeeId: to.id, leadIds: [a, c, a] });
    expect(res.json()).toEqual({ reassigned: 2, perEmployee: [{ employeeId: to.id, count: 2 }] });
    expect(await boardOf(from)).toEqual([b]);
  });

  it("spreads the leads over the other active employees by auto-assign's balance rule", async () => {
    const from = await employee();
    const light = await employee();
    const busy = await employee();
    const off = await employee();
    await onlyThese(from, light, busy, off);
    for (let i = 0; i < 3; i++) await insertLead(t.app, busy);
    for (let i = 0; i < 7; i++) await insertLead(t.app, from);
    await post(`/api/Admin/staff/${off.id}/deactivate`, {});
    await post(`/api/Admin/staff/${from.id}/deactivate`, {});

    const res = await reassign({ fromEmployeeId: from.id });
    expect(res.statusCode).toBe(200);
    // light 0 and busy 3: light takes 3 to even out, then they alternate (ties to the lower id).
    expect(res.json()).toEqual({
      reassigned: 7,
      perEmployee: [
        { employeeId: light.id, count: 5 },
        { employeeId: busy.id, count: 2 },
      ],
    });
    expect(await boardOf(light)).toHaveLength(5);
  });

  it('refuses a target that is not an active employee, the same employee, or nobody to spread to', async () => {
    const from = await employee();
    await insertLead(t.app, from);
    const off = await employee();
    await post(`/api/Admin/staff/${off.id}/deactivate`, {});
    for (const toEmployeeId of [off.id, manager.id, from.id]) {
      const res = await reassign({ fromEmployeeId: from.id, toEmployeeId });
      expect(res.statusCode).toBe(400);
    }
    expect((await reassign({ fromEmployeeId: 999_999 })).statusCode).toBe(404);
    await onlyThese(from);
    const none = await reassign({ fromEmployeeId: from.id });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(staffMessages.noTargets);
    expect(await boardOf(from)).toHaveLength(1);
  });

  it('is Admin only', async () => {
    const from = await employee();
    expect((await reassign({ fromEmployeeId: from.id }, manager)).statusCode).toBe(403);
    expect((await reassign({ fromEmployeeId: from.id }, from)).statusCode).toBe(403);
  });

  it("racing an employee's status change on the same lead: one clear winner, nothing lost", async () => {
    const from = await employee();
    const to = await employee();
    const interested = await optionId(t.app, 'client_statuses', 'Interested');
    const leads = await Promise.all(Array.from({ length: 12 }, () => insertLead(t.app, from)));
    const results = await Promise.all(
      leads.map(async (leadId, i) => {
        const change = () =>
          t.app.inject({
            method: 'PUT',
            url: `/api/LeadStatus/leads/${leadId}/status`,
            payload: { clientStatusId: interested, notes: `Race note ${i}` },
            headers: bearer(from),
          });
        const move = () => reassign({ fromEmployeeId: from.id, toEmployeeId: to.id, leadIds: [leadId] });
        // Alternate who starts first, so both orders are exercised.
        const [status, moved] =
          i % 2 === 0
            ? await Promise.all([change(), move()])
            : (await Promise.all([move(), change()])).reverse();
        return { leadId, i, status: status!, moved: moved! };
      }),
    );
    for (const { leadId, i, status, moved } of results) {
      // The reassignment always lands: the lead is with the new holder and the move is recorded once.
      expect(moved.statusCode).toBe(200);
      const history = await moves(leadId);
      expect(history).toHaveLength(1);
      const notes = await t.app.deps.db
        .selectFrom('lead_notes')
        .select(['notes', 'created_on'])
        .where('lead_id', '=', leadId)
        .execute();
      if (status.statusCode === 200) {
        // The change won the race: it is kept, and written before the lead changed hands.
        expect(notes.map((n) => n.notes)).toEqual([`Race note ${i}`]);
        expect(notes[0]!.created_on <= history[0]!.at).toBe(true);
      } else {
        // The move won: the employee is told the lead is not theirs; their text stays on the device.
        expect(status.statusCode).toBe(404);
        expect(notes).toEqual([]);
      }
    }
    expect(await boardOf(to)).toEqual([...leads].sort((a, b) => a - b));
  });
});
