import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

let t: TestApp;
let employee: Account;

beforeAll(async () => {
  t = await createTestApp();
  employee = await createAccount(t.app, await createFirstAdmin(t.app), Role.Employee);
});
afterAll(() => t.close());

describe('option lists', () => {
  it('answer the seeded client statuses in the spec order, in spec field names', async () => {
    const res = await t.app.inject({ url: '/api/LeadStatus/client-statuses', headers: bearer(employee) });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((o: { clientStat: string }) => o.clientStat)).toEqual([
      'Interested',
      'Site Visit',
      'Booking',
      'Not Interested',
    ]);
    expect(Object.keys(res.json()[0]).sort()).toEqual(['clientStat', 'clientStatusId']);
  });

  it.each([
    ['/api/LeadStatus/call-statuses', ['callStatusId', 'callStat'], 'Connected'],
    ['/api/LeadStatus/location-statuses', ['locationId', 'locationName'], 'Andheri'],
    ['/api/LeadStatus/Configuration-statuses', ['configurationId', 'configurationType'], '2 BHK'],
  ])('%s answers options with %j', async (url, [idField, nameField], sample) => {
    const res = await t.app.inject({ url, headers: bearer(employee) });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    expect(list.map((o) => o[nameField!])).toContain(sample);
    expect(list.every((o) => typeof o[idField!] === 'number')).toBe(true);
  });

  it('lists the configurations from 1 RK to Commercial', async () => {
    const res = await t.app.inject({
      url: '/api/LeadStatus/Configuration-statuses',
      headers: bearer(employee),
    });
    expect(res.json().map((o: { configurationType: string }) => o.configurationType)).toEqual([
      '1 RK',
      '1 BHK',
      '2 BHK',
      '3 BHK',
      '4 BHK',
      'Villa',
      'Plot',
      'Commercial',
    ]);
  });

  it('match paths case-insensitively and need a token', async () => {
    expect(
      (await t.app.inject({ url: '/api/leadstatus/CLIENT-STATUSES', headers: bearer(employee) })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/api/LeadStatus/client-statuses' })).statusCode).toBe(401);
  });
});
