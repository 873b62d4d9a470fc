import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { leadStatusMessages } from '../../../../contract/lead-status';
import type { Lead } from '../../../../contract/leads';
import { messages } from '../../../../contract/messages';
import { Role } from '../../../../contract/roles';
import { syncMessages } from '../../../../contract/sync';
import { enqueue } from '../../../../src/features/sync/outbox';
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

const m = messages.board;
let server: TestServer;
let gateway: Awaited<ReturnType<typeof startFlakyGateway>>;
let admin: Account;
let usedEmails: string[] = [];

const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;

/** A lead added by the Admin and assigned to `employee`, through the real API. */
async function addLead(employee: Account, overrides: Partial<Lead> = {}): Promise<Lead> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(admin),
    payload: {
      name: `Lead ${crypto.randomBytes(3).toString('hex')}`,
      phoneNo: phone(),
      email: 'buyer@example.com',
      configuration: '2 BHK',
      location: 'Powai',
      assignedTo: employee.email,
      ...overrides,
    },
  });
  if (res.statusCode !== 201) throw new Error(`add lead failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

async function giveStatus(lead: Lead, clientStat: string): Promise<void> {
  const { options } = server.app.deps;
  const client = (await options.list('client_statuses')).find((o) => o.name === clientStat)!.id;
  const call = (await options.list('call_statuses'))[0]!.id;
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/LeadStatus',
    headers: bearer(admin),
    payload: { leadId: lead.leadID, notes: 'first call', callStatusId: call, clientStatusId: client },
  });
  if (res.statusCode !== 201) throw new Error(`status failed: ${res.body}`);
}

async function newEmployee(): Promise<Account> {
  const employee = await createAccount(server.app, admin, Role.Employee);
  usedEmails.push(employee.email);
  return employee;
}

function openBoard(employee: Account) {
  saveSession({ token: employee.token, email: employee.email, roleId: Role.Employee });
  return renderApp('/employee');
}

const column = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });
const card = (name: string) => screen.getByRole('article', { name });
/**
 * Waits until the column shows the card. Asked afresh each time: the columns draw from a deferred
 * copy of the board, and a card saved on the device is drawn anew once the server numbers it.
 */
const showsCard = (title: string, name: string) =>
  waitFor(() => expect(within(column(title)).getByRole('article', { name })).toBeVisible());
/** A column whose count badge shows `n`, as a screen reader announces it: "Booking 1 lead". */
const columnCounting = (name: string, n: number) =>
  screen.getByRole('region', { name: `${name} ${n} ${n === 1 ? 'lead' : 'leads'}` });

beforeAll(async () => {
  server = await startTestServer();
  gateway = await startFlakyGateway(server.url);
  admin = await createFirstAdmin(server.app);
});
afterAll(async () => {
  await gateway.close();
  await server.close();
});
afterEach(async () => {
  // Unmount first: the board's sync engine must stop before its database goes.
  cleanup();
  gateway.reset();
  configureApi({ baseUrl: `${server.url}/api`, onUnauthorized: () => {} });
  vi.restoreAllMocks();
  for (const email of usedEmails) await userDb(email).delete();
  closeUserDbs();
  usedEmails = [];
});

describe('the employee board', () => {
  beforeAll(() => configureApi({ baseUrl: `${server.url}/api`, onUnauthorized: () => {} }));

  it('greets the employee and shows New Leads plus one column per client status, with counts', async () => {
    const employee = await newEmployee();
    const fresh = await addLead(employee, { name: 'Anita Desai' });
    const booked = await addLead(employee, { name: 'Vikram Rao' });
    await giveStatus(booked, 'Booking');
    openBoard(employee);

    expect(await screen.findByRole('article', { name: 'Anita Desai' }, { timeout: 5000 })).toBeVisible();
    const local = employee.email.split('@')[0]!;
    expect(screen.getByText(`Welcome, ${local.charAt(0).toUpperCase()}${local.slice(1)}`)).toBeVisible();
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles.slice(0, 5)).toEqual([
      'New Leads',
      'Interested',
      'Site Visit',
      'Booking',
      'Not Interested',
    ]);
    expect(within(column('New Leads')).getByRole('article', { name: fresh.name })).toBeVisible();
    expect(within(column('Booking')).getByRole('article', { name: booked.name })).toBeVisible();
    expect(columnCounting('New Leads', 1)).toBeVisible();
    expect(columnCounting('Booking', 1)).toBeVisible();
    expect(columnCounting('Interested', 0)).toBeVisible();
    const board = screen.getByRole('main');
    for (const name of ['+ Add Lead', 'Add to Interested', 'Logout', 'Regular', 'Compact']) {
      expect(within(board).getByRole('button', { name })).toBeVisible();
    }
  });

  it('shows how to reach a lead on its card', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, {
      name: 'Meera Iyer',
      phoneNo: '98200 12345',
      email: 'meera@example.com',
    });
    openBoard(employee);
    const c = await screen.findByRole('article', { name: 'Meera Iyer' }, { timeout: 5000 });
    expect(within(c).getByText('meera@example.com')).toBeVisible();
    expect(within(c).getByText('2 BHK')).toBeVisible();
    expect(within(c).getByText('Powai')).toBeVisible();
    expect(within(c).getByText(lead.phoneNo)).toBeVisible();
    expect(within(c).getByRole('link', { name: 'Call Meera Iyer' })).toHaveAttribute(
      'href',
      `tel:${lead.phoneNo}`,
    );
    const whatsApp = within(c).getByRole('link', { name: 'WhatsApp Meera Iyer' }).getAttribute('href')!;
    expect(whatsApp).toMatch(/^https:\/\/wa\.me\/919820012345\?text=/);
    expect(decodeURIComponent(whatsApp.split('text=')[1]!)).toContain('Meera Iyer');
  });

  it('draws the newest 30 cards of a long column and the rest on request', async () => {
    const employee = await newEmployee();
    for (let i = 1; i <= 35; i++) await addLead(employee, { name: `Buyer ${i}` });
    const { user } = openBoard(employee);

    await screen.findByRole('article', { name: 'Buyer 35' }, { timeout: 5000 });
    const newLeads = columnCounting('New Leads', 35);
    expect(within(newLeads).getAllByRole('article')).toHaveLength(30);
    expect(within(newLeads).queryByRole('article', { name: 'Buyer 5' })).toBeNull();

    await user.click(within(newLeads).getByRole('button', { name: 'Show 5 more' }));
    expect(within(newLeads).getAllByRole('article')).toHaveLength(35);
    expect(within(newLeads).getByRole('article', { name: 'Buyer 1' })).toBeVisible();
    expect(within(newLeads).queryByRole('button', { name: /^Show \d+ more/ })).toBeNull();
  });

  it('switches between Regular and Compact density', async () => {
    const employee = await newEmployee();
    const { user } = openBoard(employee);
    const compact = await screen.findByRole('button', { name: 'Compact' }, { timeout: 5000 });
    expect(screen.getByRole('button', { name: 'Regular' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(compact);
    expect(compact).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Regular' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('moves a card with the Move to… menu and confirms it', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, { name: 'Kiran Shah' });
    await giveStatus(lead, 'Interested');
    const { user } = openBoard(employee);
    await screen.findByRole('article', { name: 'Kiran Shah' }, { timeout: 5000 });

    await user.click(within(card('Kiran Shah')).getByRole('button', { name: 'Move Kiran Shah to…' }));
    const menu = screen.getByRole('menu', { name: 'Move Kiran Shah to' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Site Visit', 'Booking', 'Not Interested']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Site Visit' }));

    expect(await screen.findByText(m.statusUpdated)).toBeInTheDocument();
    expect(screen.getByText(leadStatusMessages.moved('Kiran Shah', 'Site Visit'))).toBeInTheDocument();
    await showsCard('Site Visit', 'Kiran Shah');
    expect(columnCounting('Interested', 0)).toBeVisible();
    const row = await server.app.deps.db
      .selectFrom('lead_statuses')
      .innerJoin('client_statuses', 'client_statuses.id', 'lead_statuses.client_status_id')
      .select('client_statuses.name')
      .where('lead_id', '=', lead.leadID)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Site Visit');
  });

  it('works the Move to… menu from the keyboard, without New Leads or the current column', async () => {
    const employee = await newEmployee();
    await addLead(employee, { name: 'Leela Menon' });
    const { user } = openBoard(employee);
    await screen.findByRole('article', { name: 'Leela Menon' }, { timeout: 5000 });
    const button = screen.getByRole('button', { name: 'Move Leela Menon to…' });
    button.focus();
    await user.keyboard('{Enter}');
    const items = within(screen.getByRole('menu')).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Interested',
      'Site Visit',
      'Booking',
      'Not Interested',
    ]);
    expect(items[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items[1]).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(items[3]).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });
});

describe('the Add Note modal', () => {
  beforeAll(() => configureApi({ baseUrl: `${server.url}/api`, onUnauthorized: () => {} }));

  it('checks every field with the spec messages, then saves, moves the lead and opens the reminder', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, { name: 'Farah Khan' });
    const { user } = openBoard(employee);
    await user.click(
      await screen.findByRole('button', { name: 'Add Note for Farah Khan' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: `Add Note — Lead #${lead.leadID}` });
    const setReminder = within(dialog).getByRole('button', { name: 'Set Reminder' });
    expect(setReminder).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Save Note' }));
    for (const message of [
      m.callStatusRequired,
      m.clientStatusRequired,
      m.locationRequired,
      m.configurationRequired,
      m.descriptionRequired,
    ]) {
      expect(within(dialog).getByText(message)).toBeVisible();
    }
    expect(await screen.findByText(m.fixErrors)).toBeInTheDocument();

    await user.selectOptions(within(dialog).getByLabelText('Call Status'), 'Connected');
    await user.selectOptions(within(dialog).getByLabelText('Client Status'), 'Site Visit');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Thane' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Bandra' }));
    await user.click(within(dialog).getByRole('checkbox', { name: '3 BHK' }));
    await user.type(within(dialog).getByLabelText('Description'), 'Wants a sea-facing flat');
    expect(within(dialog).queryByText(m.descriptionRequired)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save Note' }));

    expect(await screen.findByText(m.noteSaved)).toBeInTheDocument();
    // The toast comes from the outbox's event; the modal learns of the save when its call returns.
    await waitFor(() => expect(setReminder).toBeEnabled());
    const lastSaved = within(dialog).getByRole('region', { name: 'Last Saved' });
    expect(lastSaved).toHaveTextContent('Connected · Site Visit · Thane · 3 BHK');
    expect(lastSaved).toHaveTextContent('Wants a sea-facing flat');
    const history = within(dialog).getByRole('region', { name: 'Earlier notes' });
    expect(await within(history).findByText('Wants a sea-facing flat')).toBeVisible();
    await showsCard('Site Visit', 'Farah Khan');

    // Spec §5: only the first chosen location and configuration are sent: Thane was ticked before Bandra.
    const saved = await server.app.deps.db
      .selectFrom('lead_notes')
      .innerJoin('locations', 'locations.id', 'lead_notes.location_id')
      .select(['locations.name', 'lead_notes.notes'])
      .where('lead_id', '=', lead.leadID)
      .execute();
    expect(saved).toEqual([{ name: 'Thane', notes: 'Wants a sea-facing flat' }]);
  });

  it('sets a reminder with the spec messages and lists it as upcoming', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, { name: 'Dev Patel' });
    await giveStatus(lead, 'Interested');
    const { user } = openBoard(employee);
    await user.click(
      await screen.findByRole('button', { name: 'Add Note for Dev Patel' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByLabelText('Call Status'), 'Busy');
    await user.selectOptions(within(dialog).getByLabelText('Client Status'), 'Interested');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Andheri' }));
    await user.click(within(dialog).getByRole('checkbox', { name: '1 BHK' }));
    await user.type(within(dialog).getByLabelText('Description'), 'Call after 6');
    await user.click(within(dialog).getByRole('button', { name: 'Save Note' }));
    await screen.findByText(m.noteSaved);

    const setReminder = within(dialog).getByRole('button', { name: 'Set Reminder' });
    await user.click(setReminder);
    expect(await screen.findByText(m.reminderTimeRequired)).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Reminder'), '2031-03-04T18:30');
    localStorage.removeItem('employeeEmail');
    await user.click(setReminder);
    expect(await screen.findByText(m.reminderNoEmail)).toBeInTheDocument();

    localStorage.setItem('employeeEmail', employee.email);
    await user.click(setReminder);
    expect(await screen.findByText(m.reminderSet)).toBeInTheDocument();
    const upcoming = screen.getByRole('region', { name: 'Upcoming reminders' });
    expect(await within(upcoming).findByText('Dev Patel')).toBeVisible();
    expect(within(upcoming).getByText('Call after 6')).toBeVisible();
    const stored = await server.app.deps.db
      .selectFrom('reminders')
      .selectAll()
      .where('lead_id', '=', lead.leadID)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.reminder_time).toBe(new Date('2031-03-04T18:30').toISOString());
  });
});

describe('the Add New Lead modal', () => {
  beforeAll(() => configureApi({ baseUrl: `${server.url}/api`, onUnauthorized: () => {} }));

  it('asks for name and phone, refuses a duplicate phone without naming its holder, and adds the lead to New Leads', async () => {
    const employee = await newEmployee();
    const other = await newEmployee();
    const taken = await addLead(other);
    const { user } = openBoard(employee);
    await user.click(await screen.findByRole('button', { name: '+ Add Lead' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Lead' });
    expect(within(dialog).getByLabelText('Initial Status')).toHaveDisplayValue('New Leads');
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    expect(within(dialog).getAllByText(m.nameAndPhoneRequired).length).toBeGreaterThan(0);

    await user.type(within(dialog).getByLabelText('Name'), 'Sana Sheikh');
    await user.type(within(dialog).getByLabelText('Phone'), taken.phoneNo);
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    // An employee is not told whose lead has the number (issue 16).
    const refusal = await within(dialog).findByRole('alert');
    expect(refusal).toHaveTextContent('A lead with this phone already exists.');
    expect(refusal).not.toHaveTextContent(other.email);
    // What was typed is still there to correct.
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Sana Sheikh');

    await user.clear(within(dialog).getByLabelText('Phone'));
    await user.type(within(dialog).getByLabelText('Phone'), phone());
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    expect(await screen.findByText(m.leadAdded)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await showsCard('New Leads', 'Sana Sheikh');
    const row = await server.app.deps.db
      .selectFrom('leads')
      .select('assigned_to_id')
      .where('name', '=', 'Sana Sheikh')
      .executeTakeFirstOrThrow();
    expect(row.assigned_to_id).toBe(employee.id);
  });

  it('opens the note modal after "Add to" so the first note places the lead in that column', async () => {
    const employee = await newEmployee();
    const { user } = openBoard(employee);
    await user.click(await screen.findByRole('button', { name: 'Add to Interested' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Lead' });
    expect(within(dialog).getByLabelText('Initial Status')).toHaveDisplayValue('Interested');
    await user.type(within(dialog).getByLabelText('Name'), 'Tara Nair');
    await user.type(within(dialog).getByLabelText('Phone'), phone());
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    const noteDialog = await screen.findByRole('dialog', { name: /^Add Note — Lead #\d+$/ });
    expect(within(noteDialog).getByLabelText('Client Status')).toHaveDisplayValue('Interested');
  });
});

describe('offline', () => {
  it('keeps working without a network: the move shows at once, marked as waiting, and syncs when back', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, { name: 'Ishaan Gupta' });
    await giveStatus(lead, 'Interested');
    configureApi({ baseUrl: `${gateway.url}/api`, onUnauthorized: () => {} });
    const { user } = openBoard(employee);
    await screen.findByRole('article', { name: 'Ishaan Gupta' }, { timeout: 5000 });

    gateway.always('down');
    await user.click(screen.getByRole('button', { name: 'Move Ishaan Gupta to…' }));
    await user.click(screen.getByRole('menuitem', { name: 'Not Interested' }));
    expect(await screen.findByText(syncMessages.savedOffline)).toBeInTheDocument();
    const moved = await within(column('Not Interested')).findByRole('article', { name: 'Ishaan Gupta' });
    expect(within(moved).getByText(syncMessages.pending)).toBeVisible();
    expect(screen.getByText(syncMessages.waiting(1))).toBeVisible();

    gateway.always('pass');
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText(syncMessages.waiting(1))).not.toBeInTheDocument());
    // The columns draw from a deferred copy of the board, so the card follows a render later.
    await waitFor(() =>
      expect(within(card('Ishaan Gupta')).queryByText(syncMessages.pending)).not.toBeInTheDocument(),
    );
    expect(within(column('Not Interested')).getByRole('article', { name: 'Ishaan Gupta' })).toBeVisible();
  });

  it('falls back to the default columns and says the leads failed to load when there is neither network nor a copy', async () => {
    const employee = await newEmployee();
    configureApi({ baseUrl: `${gateway.url}/api`, onUnauthorized: () => {} });
    gateway.always('down');
    openBoard(employee);
    expect(await screen.findByText(m.loadFailed, {}, { timeout: 5000 })).toBeInTheDocument();
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles.slice(0, 5)).toEqual([
      'New Leads',
      'Interested',
      'Site Visit',
      'Booking',
      'Not Interested',
    ]);
  });

  it('lists refused changes under "Needs attention" with the reason, and lets them be discarded', async () => {
    const employee = await newEmployee();
    const notMine = await addLead(await newEmployee());
    const db = userDb(employee.email);
    await enqueue(db, {
      kind: 'reminder',
      leadId: notMine.leadID,
      leadName: notMine.name,
      payload: { leadId: notMine.leadID, reminderTime: '2031-01-01T10:00:00Z', note: 'follow up' },
    });
    const { user } = openBoard(employee);
    const panel = await screen.findByRole('region', { name: /Needs attention/ }, { timeout: 5000 });
    expect(await within(panel).findByText(leadStatusMessages.leadNotFound)).toBeVisible();
    expect(within(panel).getByText('“follow up”')).toBeVisible();
    await user.click(within(panel).getByRole('button', { name: syncMessages.discard }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: /Needs attention/ })).not.toBeInTheDocument(),
    );
  });

  // Both Logout buttons (the board's and the navbar's) take the same path: no way out drops
  // unsynced changes.
  it.each([
    ['board', (main: HTMLElement) => within(main)],
    // The board's own header is a banner too; the navbar is the one outside <main>.
    [
      'navbar',
      (main: HTMLElement) => within(screen.getAllByRole('banner').find((el) => !main.contains(el))!),
    ],
  ])(
    'warns before the %s Logout with unsynced changes, keeps them, and clears the cached leads',
    async (_, area) => {
      const employee = await newEmployee();
      const lead = await addLead(employee, { name: 'Neha Joshi' });
      await giveStatus(lead, 'Interested');
      configureApi({ baseUrl: `${gateway.url}/api`, onUnauthorized: () => {} });
      const { user, location } = openBoard(employee);
      await screen.findByRole('article', { name: 'Neha Joshi' }, { timeout: 5000 });
      gateway.always('down');
      await user.click(screen.getByRole('button', { name: 'Move Neha Joshi to…' }));
      await user.click(screen.getByRole('menuitem', { name: 'Booking' }));
      await screen.findByText(syncMessages.waiting(1));

      const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false);
      const logout = () => area(screen.getByRole('main')).getByRole('button', { name: 'Logout' });
      await user.click(logout());
      await waitFor(() => expect(confirm).toHaveBeenCalledWith(syncMessages.logoutWithPending(1)));
      expect(location.pathname).toBe('/employee');

      confirm.mockReturnValueOnce(true);
      await user.click(logout());
      await waitFor(() => expect(location.pathname).toBe('/'));
      const db = userDb(employee.email);
      expect(await db.leads.count()).toBe(0);
      expect(await db.outbox.count()).toBe(1);
      expect(localStorage.getItem('token')).toBeNull();
    },
  );
});
