import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { FollowUp } from '../../../../contract/follow-ups';
import { createTestDevice, type FakePushService, type TestDevice } from '../../../helpers/push-service';
import { ADMIN, call, login, registerEmployee } from './server-process';

// Setup shared by the reminder fault tests: employees with devices and leads on a server process.

export interface FieldEmployee {
  id: number;
  email: string;
  token: string;
  devices: TestDevice[];
  leads: { id: number; name: string }[];
}

export async function fieldEmployee(
  url: string,
  push: FakePushService,
  { devices, leads }: { devices: number; leads: number },
): Promise<FieldEmployee> {
  const admin = await login(url, ADMIN.email, ADMIN.password);
  const employee = await registerEmployee(url, admin);
  const result: FieldEmployee = { ...employee, devices: [], leads: [] };
  for (let i = 0; i < devices; i++) {
    const device = createTestDevice(push);
    expect(
      (await call(url, employee.token, 'POST', '/api/push/subscriptions', device.subscription)).status,
    ).toBe(201);
    result.devices.push(device);
  }
  for (let i = 0; i < leads; i++) {
    const name = `Follow-up lead ${crypto.randomBytes(4).toString('hex')}`;
    const phoneNo = `8${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;
    const res = await call(url, employee.token, 'POST', '/api/Admin/leads', { name, phoneNo });
    expect(res.status).toBe(201);
    result.leads.push({ id: res.json<{ leadID: number }>().leadID, name });
  }
  return result;
}

export async function addReminder(url: string, token: string, leadId: number, at: Date, note: string) {
  const res = await call(url, token, 'POST', '/api/LeadStatus/add-reminder', {
    leadId,
    reminderTime: at.toISOString(),
    note,
  });
  expect(res.status).toBe(201);
  return res.json<FollowUp>();
}

export async function until(what: string, done: () => Promise<boolean> | boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The subject line of a raw mail (one line; the subjects here are short ASCII). */
export const subjectOf = (raw: string) => /^Subject: (.*)$/m.exec(raw)?.[1] ?? '';
