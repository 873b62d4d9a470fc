import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '../../../contract/admin';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

// Issue 16, finding 5: an employee adding a lead with a colleague's lead's phone was told
// "(assigned to e2@…)", so any employee could learn who holds any number; and the add-lead body's
// assignedDate, the employee's own, was stored.

let t: TestApp;
let admin: Account;
let e1: Account;
let e2: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  e1 = await createAccount(t.app, admin, Role.Employee);
  e2 = await createAccount(t.app, admin, Role.Employee);
});
afterAll(() => t.close());

const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;
const addLead = (account: Account, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(account),
    payload: { name: 'Held Lead', ...body },
  });

describe('a duplicate phone', () => {
  it('is refused to an employee without naming the holder, and named to an Admin', async () => {
    const held = phone();
    expect((await addLead(e2, { phoneNo: held })).statusCode).toBe(201);

    const byEmployee = await addLead(e1, { phoneNo: held });
    expect(byEmployee.statusCode).toBe(409);
    expect(byEmployee.json().message).toBe(adminMessages.duplicatePhoneTaken);
    expect(byEmployee.body).not.toContain(e2.email);

    const byAdmin = await addLead(admin, { phoneNo: held });
    expect(byAdmin.statusCode).toBe(409);
    expect(byAdmin.json().message).toBe(adminMessages.duplicatePhone(e2.email));
  });
});

describe("an employee's add-lead body", () => {
  it('cannot set the assigned date: the server sets it to now', async () => {
    const before = Date.now();
    const res = await addLead(e1, { phoneNo: phone(), assignedDate: '2020-01-01T00:00:00.000Z' });
    expect(res.statusCode).toBe(201);
    const assigned = Date.parse(res.json().assignedDate);
    expect(assigned).toBeGreaterThanOrEqual(before - 1000);
    expect(assigned).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("is still the Admin's to date when the Admin assigns a new lead", async () => {
    const res = await addLead(admin, {
      phoneNo: phone(),
      assignedTo: e1.email,
      assignedDate: '2026-01-05T10:00:00.000Z',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().assignedDate).toBe('2026-01-05T10:00:00.000Z');
  });
});
