import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_EXPORT_COLUMNS } from '../../../contract/lead-export';
import { Role } from '../../../contract/roles';
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
let agent: Account;
let other: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  manager = await createAccount(t.app, admin, Role.Manager);
  agent = await createAccount(t.app, admin, Role.Employee);
  other = await createAccount(t.app, admin, Role.Employee);
});
afterAll(() => t.close());

type Row = Record<(typeof LEAD_EXPORT_COLUMNS)[number], string | number>;

/** The file as another library reads it: SheetJS, not the exceljs that wrote it. */
function readSheet(bytes: Buffer) {
  const book = XLSX.read(bytes, { type: 'buffer' });
  const sheet = book.Sheets[book.SheetNames[0]!]!;
  const grid = XLSX.utils.sheet_to_json<(string | number)[]>(sheet, { header: 1, defval: '' });
  const [header, ...rows] = grid;
  const objects = rows.map(
    (r) => Object.fromEntries(LEAD_EXPORT_COLUMNS.map((c, i) => [c, r[i] ?? ''])) as Row,
  );
  return { names: book.SheetNames, sheet, header, rows: objects };
}

const exportAs = (who: Account | null, query = '') =>
  t.app.inject({ url: `/api/Admin/leads/export${query}`, headers: who ? bearer(who) : {} });

async function exportedIds(query: string): Promise<number[]> {
  const res = await exportAs(admin, query);
  expect(res.statusCode).toBe(200);
  return readSheet(res.rawPayload).rows.map((r) => Number(r['Lead ID']));
}

async function listedIds(path: string, query: string): Promise<number[]> {
  const res = await t.app.inject({ url: `/api/Admin/${path}${query}`, headers: bearer(admin) });
  expect(res.statusCode).toBe(200);
  return res.json().map((l: { leadID: number }) => l.leadID);
}

async function rename(id: number, name: string) {
  await t.app.deps.db.updateTable('leads').set({ name }).where('id', '=', id).execute();
}

describe('GET /api/Admin/leads/export', () => {
  it('writes one row per lead with status, holder, last note and next follow-up', async () => {
    const leadId = await insertLead(t.app, agent, { siteVisit: 'Export Heights' });
    await rename(leadId, 'Neha Kulkarni');
    const interested = await optionId(t.app, 'client_statuses', 'Interested');
    const call = await t.app.deps.db.selectFrom('call_statuses').select(['id']).executeTakeFirstOrThrow();
    for (const notes of ['First call, busy', 'Second call: wants 3 BHK']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/LeadStatus',
        payload: { leadId, notes, callStatusId: call.id, clientStatusId: interested },
        headers: bearer(agent),
      });
      expect(res.statusCode).toBeLessThan(300);
    }
    // 2026-12-01 10:00 UTC is 15:30 in Kolkata (the default AGENCY_TIMEZONE).
    const times = ['2026-12-03T04:30:00.000Z', '2026-12-01T10:00:00.000Z'];
    for (const reminderTime of times) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/LeadStatus/add-reminder',
        payload: { leadId, reminderTime, note: `for ${reminderTime}` },
        headers: bearer(agent),
      });
      expect(res.statusCode).toBe(201);
    }
    const gone = await insertLead(t.app, agent, { siteVisit: 'Export Heights', deleted: true });

    const res = await exportAs(admin, '?format=xlsx&siteVisit=Export%20Heights');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
    expect(res.headers['content-disposition']).toBe(`attachment; filename="leads-${today}.xlsx"`);
    const { names, header, rows } = readSheet(res.rawPayload);
    expect(names).toEqual(['Leads']);
    expect(header).toEqual([...LEAD_EXPORT_COLUMNS]);
    expect(rows.map((r) => r['Lead ID'])).not.toContain(gone);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      'Lead ID': leadId,
      Name: 'Neha Kulkarni',
      Campaign: 'Export Heights',
      Location: 'Andheri',
      Configuration: '2 BHK',
      Status: 'Interested',
      'Held By': agent.email,
      'Last Note': 'Second call: wants 3 BHK',
      'Last Note By': agent.email,
      'Next Follow-up': '2026-12-01 15:30',
      'Follow-up Note': 'for 2026-12-01T10:00:00.000Z',
    });
    expect(String(rows[0]!['Last Note At'])).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    // The phone stays text: all ten digits, not a number in scientific notation.
    const phone = (
      await t.app.deps.db
        .selectFrom('leads')
        .select('phone')
        .where('id', '=', leadId)
        .executeTakeFirstOrThrow()
    ).phone;
    expect(rows[0]!.Phone).toBe(phone);
  });

  it('neutralises cells that a spreadsheet could run as a formula', async () => {
    const dangerous = [
      '=HYPERLINK("http://evil.test","Click")',
      '+91 98765 43210',
      '-2+3',
      '@SUM(A1:A2)',
      '\tTabbed',
      '\rReturned',
    ];
    const ids: number[] = [];
    for (const name of dangerous) {
      const id = await insertLead(t.app, null, { siteVisit: 'Formula Park' });
      await rename(id, name);
      ids.push(id);
    }
    const safe = await insertLead(t.app, null, { siteVisit: 'Formula Park' });
    await rename(safe, 'Ravi = Kumar');
    await t.app.deps.db
      .updateTable('leads')
      .set({ email: '=cmd|"/c calc"!A0' })
      .where('id', '=', safe)
      .execute();

    const res = await exportAs(manager, '?siteVisit=Formula%20Park');
    expect(res.statusCode).toBe(200);
    const { sheet, rows } = readSheet(res.rawPayload);
    expect(rows.map((r) => r.Name)).toEqual([...dangerous.map((n) => `'${n}`), 'Ravi = Kumar']);
    expect(rows.at(-1)!.Email).toBe(`'=cmd|"/c calc"!A0`);
    // No cell of the sheet is a formula, and every name is a text cell.
    for (const [address, cell] of Object.entries(sheet)) {
      if (address.startsWith('!')) continue;
      expect((cell as XLSX.CellObject).f, address).toBeUndefined();
      if (address.startsWith('B')) expect((cell as XLSX.CellObject).t, address).toBe('s');
    }
  });

  it('writes a visit time past the calendar’s end as it was stored, and the rest of the file', async () => {
    // The largest date JavaScript holds: the agency's offset pushed past it once broke the export
    // (found by the route fuzzer).
    const edge = await insertLead(t.app, null, { siteVisit: 'Edge Park' });
    const farOff = '+275760-09-13T00:00:00.000Z';
    await t.app.deps.db
      .updateTable('leads')
      .set({ visit_date_time: farOff })
      .where('id', '=', edge)
      .execute();
    const after = await insertLead(t.app, null, { siteVisit: 'Edge Park' });

    const res = await exportAs(admin, '?siteVisit=Edge%20Park');
    expect(res.statusCode).toBe(200);
    const { rows } = readSheet(res.rawPayload);
    expect(rows.map((r) => Number(r['Lead ID']))).toEqual([edge, after]);
    expect(rows[0]!['Visit Date']).toBe(`'${farOff}`);
  });

  it('takes the lead list’s filters: unassigned, employee, search, campaign, status', async () => {
    const held = await insertLead(t.app, other, { siteVisit: 'Filter Court' });
    await rename(held, 'Filterable Zed');
    await insertLead(t.app, null, { siteVisit: 'Filter Court' });
    const booking = await optionId(t.app, 'client_statuses', 'Booking');
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/LeadStatus/leads/${held}/status`,
      payload: { clientStatusId: booking, notes: 'Booked' },
      headers: bearer(other),
    });
    expect(res.statusCode).toBe(200);

    const cases: [string, string, string][] = [
      ['', 'leads', ''],
      ['?unassigned=true', 'unassigned', ''],
      [`?employeeId=${other.id}`, 'leads', `?employeeId=${other.id}`],
      ['?search=filterable', 'leads', '?search=filterable'],
      ['?siteVisit=Filter%20Court', 'leads', '?siteVisit=Filter%20Court'],
      [`?clientStatusId=${booking}`, 'leads', `?clientStatusId=${booking}`],
      ['?clientStatusId=0&siteVisit=Filter%20Court', 'leads', '?clientStatusId=0&siteVisit=Filter%20Court'],
      [`?unassigned=true&search=filterable`, 'unassigned', '?search=filterable'],
    ];
    for (const [exportQuery, listPath, listQuery] of cases) {
      const listed = await listedIds(listPath, listQuery);
      expect(await exportedIds(exportQuery), exportQuery).toEqual(listed);
    }
    expect(await exportedIds(`?employeeId=${other.id}`)).toEqual([held]);
    expect(await exportedIds('?search=filterable&unassigned=true')).toEqual([]);
  });

  it('pages through more leads than one query reads, each once and in order', async () => {
    const now = new Date().toISOString();
    const rows = Array.from({ length: 2345 }, (_, i) => ({
      name: `Bulk ${i}`,
      email: '',
      phone: `7${String(100_000_000 + i).padStart(9, '0')}`,
      visit_date_time: null,
      configuration: '',
      site_visit: 'Bulk Bay',
      location: '',
      interested_in: '',
      assigned_to_id: null,
      assigned_date: null,
      created_at: now,
      created_by: null,
      deleted_at: null,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await t.app.deps.db
        .insertInto('leads')
        .values(rows.slice(i, i + 200))
        .execute();
    }
    const ids = await exportedIds('?siteVisit=Bulk%20Bay');
    expect(ids).toHaveLength(2345);
    expect(new Set(ids).size).toBe(2345);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('is for Admins and Managers only, and only as xlsx', async () => {
    expect((await exportAs(agent)).statusCode).toBe(403);
    expect((await exportAs(null)).statusCode).toBe(401);
    const csv = await exportAs(admin, '?format=csv');
    expect(csv.statusCode).toBe(400);
    expect((await exportAs(manager, '?format=xlsx')).statusCode).toBe(200);
  });
});
