import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FollowUp } from '../../../../contract/follow-ups';
import { Role } from '../../../../contract/roles';
import { configureApi } from '../../../../src/lib/api-client';
import { closeUserDbs, userDb } from '../../../../src/lib/db';
import { saveSession } from '../../../../src/lib/session';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  startTestServer,
  type TestServer,
} from '../../../helpers/test-server';
import { renderApp } from '../../support/render-app';
import { startFlakyGateway } from '../sync/flaky-gateway';

let server: TestServer;
let gateway: Awaited<ReturnType<typeof startFlakyGateway>>;
let admin: Account;
let employee: Account;

async function leadWithReminder(name: string, at: Date, note = ''): Promise<number> {
  const lead = await server.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(admin),
    payload: {
      name,
      phoneNo: `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`,
      assignedTo: employee.email,
    },
  });
  const leadId = lead.json().leadID as number;
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/LeadStatus/add-reminder',
    headers: bearer(employee),
    payload: { leadId, reminderTime: at.toISOString(), note },
  });
  return res.json().reminderId;
}

async function serverReminder(id: number): Promise<FollowUp | undefined> {
  const res = await server.app.inject({
    method: 'GET',
    url: '/api/LeadStatus/reminders?status=all',
    headers: bearer(employee),
  });
  return (res.json() as FollowUp[]).find((r) => r.reminderId === id);
}

const section = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name} \\d+$`) });
// The first render loads the screen's code and IndexedDB, and a write goes through the outbox
// and the gateway: on a busy machine either can take seconds.
const FIRST = { timeout: 10_000 };
const row = (sectionName: string, leadName: string) =>
  within(section(sectionName)).getByRole('listitem', { name: new RegExp(`^${leadName},`) });

/** Later today, or null in the last minutes before midnight (no "later today" to test then). */
function laterToday(): Date | null {
  const midnight = new Date();
  midnight.setHours(24, 0, 0, 0);
  const left = midnight.getTime() - Date.now();
  return left > 10 * 60_000 ? new Date(Date.now() + left / 2) : null;
}

function openToday() {
  saveSession({ token: employee.token, email: employee.email, roleId: Role.Employee });
  return renderApp('/today');
}

beforeAll(async () => {
  server = await startTestServer();
  gateway = await startFlakyGateway(server.url);
  admin = await createFirstAdmin(server.app);
});
afterAll(async () => {
  await gateway.close();
  await server.close();
});
beforeEach(async () => {
  employee = await createAccount(server.app, admin, Role.Employee);
  gateway.reset();
  configureApi({ baseUrl: `${gateway.url}/api`, onUnauthorized: () => {} });
});
afterEach(async () => {
  cleanup();
  await userDb(employee.email).delete();
  closeUserDbs();
});

describe('Today', () => {
  it('lists overdue, due today and upcoming follow-ups, each with its actions, and counts what is due in the nav', async () => {
    await leadWithReminder('Anita Desai', new Date(Date.now() - 2 * 3600_000), 'Wants a sea view');
    const today = laterToday();
    if (today) await leadWithReminder('Vikram Rao', today);
    await leadWithReminder('Kiran Shah', new Date(Date.now() + 3 * 86_400_000));
    openToday();

    const anita = await waitFor(() => row('Overdue', 'Anita Desai'), FIRST);
    expect(anita).toHaveAttribute('data-overdue', 'true');
    expect(within(anita).getByText('Wants a sea view')).toBeVisible();
    for (const link of ['Call Anita Desai', 'WhatsApp Anita Desai', 'Add Note for Anita Desai'])
      expect(within(anita).getByRole('link', { name: link })).toBeVisible();
    for (const button of ['Done: Anita Desai', 'Snooze Anita Desai'])
      expect(within(anita).getByRole('button', { name: button })).toBeVisible();
    expect(within(anita).getByRole('link', { name: 'Call Anita Desai' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^tel:9\d{9}$/),
    );
    expect(within(anita).getByRole('link', { name: 'Add Note for Anita Desai' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/employee\?lead=\d+$/),
    );
    if (today) expect(row('Due today', 'Vikram Rao')).toBeVisible();
    expect(row('Upcoming', 'Kiran Shah')).toBeVisible();
    // Overdue plus due today, in the menu.
    expect(await screen.findByRole('link', { name: `Today ${today ? 2 : 1} due` })).toBeVisible();
  });

  it('takes Done at once and sends it once; Snooze moves the follow-up to its new time', async () => {
    const anita = await leadWithReminder('Anita Desai', new Date(Date.now() - 3600_000));
    const vikram = await leadWithReminder('Vikram Rao', new Date(Date.now() - 1800_000));
    const { user } = openToday();

    await user.click(
      await waitFor(() =>
        within(row('Overdue', 'Anita Desai')).getByRole('button', { name: 'Done: Anita Desai' }),
      ),
    );
    await waitFor(() =>
      expect(within(section('Overdue')).queryByRole('listitem', { name: /^Anita Desai/ })).toBeNull(),
    );
    await waitFor(async () => expect((await serverReminder(anita))?.isDone).toBe(true), FIRST);
    // One write: the outbox's batch (POST /api/sync) carrying the Done.
    expect(gateway.writes().map((w) => w.url)).toEqual(['/api/sync']);

    await user.click(within(row('Overdue', 'Vikram Rao')).getByRole('button', { name: 'Snooze Vikram Rao' }));
    await user.click(screen.getByRole('menuitem', { name: 'Tomorrow 10:00' }));
    const moved = await waitFor(() => row('Upcoming', 'Vikram Rao'));
    expect(within(moved).getByText('tomorrow 10:00')).toBeVisible();
    await waitFor(async () => {
      const stored = await serverReminder(vikram);
      expect(new Date(stored!.reminderTime).getHours()).toBe(10);
    }, FIRST);
    // A reminders refresh that left before the snooze landed may show it overdue for a moment.
    await waitFor(() => expect(screen.getByText('Nothing overdue.')).toBeVisible());
  });

  it('opens offline from the device: overdue follow-ups still show, and a Done waits for the network', async () => {
    const anita = await leadWithReminder('Anita Desai', new Date(Date.now() - 3600_000));
    openToday();
    await waitFor(() => row('Overdue', 'Anita Desai'), FIRST);
    cleanup();

    gateway.always('down');
    const { user } = openToday();
    const offline = await waitFor(() => row('Overdue', 'Anita Desai'), FIRST);
    await user.click(within(offline).getByRole('button', { name: 'Done: Anita Desai' }));
    await waitFor(() => expect(within(section('Overdue')).queryByRole('listitem')).toBeNull());
    expect((await serverReminder(anita))?.isDone).toBe(false);
    expect(await userDb(employee.email).outbox.count()).toBe(1);

    gateway.always('pass');
    window.dispatchEvent(new Event('online'));
    await waitFor(async () => expect((await serverReminder(anita))?.isDone).toBe(true), FIRST);
  });
});
