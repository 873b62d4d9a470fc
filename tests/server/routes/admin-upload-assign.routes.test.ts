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
import { multipart, phone, type Row, workbook } from './admin-upload-support';

describe('auto-assign', () => {
  let loads: TestApp;
  let loadsAdmin: Account;
  beforeAll(async () => {
    loads = await createTestApp();
    loadsAdmin = await createFirstAdmin(loads.app);
  });
  afterAll(() => loads.close());

  const send = (rows: Row[], autoAssign: boolean) => {
    const { payload, contentType } = multipart('assign.xlsx', workbook(rows));
    return loads.app.inject({
      method: 'POST',
      url: `/api/Admin/upload-leads?autoAssign=${autoAssign}`,
      payload,
      headers: { ...bearer(loadsAdmin), 'content-type': contentType },
    });
  };
  const sheet = (n: number): Row[] => [
    ['Name', 'Phone'],
    ...Array.from({ length: n }, (_, i) => [`Lead ${i}`, phone()]),
  ];
  const perEmployee = async () => {
    const res = await loads.app.inject({ url: '/api/Admin/stats', headers: bearer(loadsAdmin) });
    return Object.fromEntries(
      res.json().perEmployee.map((e: { email: string; count: number }) => [e.email, e.count]),
    );
  };

  it('leaves leads unassigned and says so when there is no active employee', async () => {
    const res = await send(sheet(2), true);
    expect(res.json()).toMatchObject({
      inserted: 2,
      autoAssigned: false,
      message: adminMessages.noEmployees,
    });
  });

  it('gives each new lead to the employee with the fewest open leads, ties to the lowest id', async () => {
    const a = await createAccount(loads.app, loadsAdmin, Role.Employee, { email: 'a-emp@example.com' });
    const b = await createAccount(loads.app, loadsAdmin, Role.Employee, { email: 'b-emp@example.com' });
    const c = await createAccount(loads.app, loadsAdmin, Role.Employee, { email: 'c-emp@example.com' });
    const inactive = await createAccount(loads.app, loadsAdmin, Role.Employee, {
      email: 'd-emp@example.com',
    });
    await loads.app.deps.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id', '=', inactive.id)
      .execute();
    await createAccount(loads.app, loadsAdmin, Role.Manager, { email: 'm-mgr@example.com' });
    // Unequal loads before the upload: a 3, b 1, c 0.
    for (const [employee, n] of [
      [a, 3],
      [b, 1],
    ] as const) {
      for (let i = 0; i < n; i++) {
        await loads.app.inject({
          method: 'POST',
          url: '/api/Admin/leads',
          payload: { name: 'Preloaded', phoneNo: phone(), assignedTo: employee.email },
          headers: bearer(loadsAdmin),
        });
      }
    }
    expect(await perEmployee()).toEqual({ [a.email]: 3, [b.email]: 1, [c.email]: 0 });

    const res = await send(sheet(6), true);
    expect(res.json()).toMatchObject({ totalRows: 6, inserted: 6, autoAssigned: true });
    // c takes 3 and b 2 to reach a's 3; the sixth lead goes to a, the lowest id of the tie.
    expect(await perEmployee()).toEqual({ [a.email]: 4, [b.email]: 3, [c.email]: 3 });
    expect(res.json().message).toBeUndefined();
  });

  it('assigns nothing when the checkbox was off', async () => {
    const before = await perEmployee();
    const res = await send(sheet(3), false);
    expect(res.json()).toMatchObject({ inserted: 3, autoAssigned: false });
    expect(await perEmployee()).toEqual(before);
  });
});
