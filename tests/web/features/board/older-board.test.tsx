import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Lead } from '../../../../contract/leads';
import { messages } from '../../../../contract/messages';
import { Role } from '../../../../contract/roles';
import { syncMessages } from '../../../../contract/sync';
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

const m = messages.olderBoard;
let server: TestServer;
let admin: Account;
let usedEmails: string[] = [];

const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;
const pointAt = (origin: string) => configureApi({ baseUrl: `${origin}/api`, onUnauthorized: () => {} });

/** A lead the Admin adds and assigns to `employee`, through the real API. */
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

async function serverStatus(lead: Lead): Promise<string | undefined> {
  const row = await server.app.deps.db
    .selectFrom('lead_statuses')
    .innerJoin('client_statuses', 'client_statuses.id', 'lead_statuses.client_status_id')
    .select('client_statuses.name')
    .where('lead_id', '=', lead.leadID)
    .executeTakeFirst();
  return row?.name;
}

async function newEmployee(): Promise<Account> {
  const employee = await createAccount(server.app, admin, Role.Employee);
  usedEmails.push(employee.email);
  return employee;
}

function openBoard(employee: Account) {
  saveSession({ token: employee.token, email: employee.email, roleId: Role.Employee });
  return renderApp('/employees');
}

const column = (title: string) =>
  screen.getByRole('region', { name: new RegExp(`^${title.replace('/', '\\/')} \\d`) });
const columnCounting = (title: string, n: number) =>
  screen.getByRole('region', { name: `${title} ${n} ${n === 1 ? 'lead' : 'leads'}` });
const card = (name: string) => screen.getByRole('article', { name });
const findCard = (name: string) => screen.findByRole('article', { name }, { timeout: 5000 });

/** Native drag and drop as the browser fires it: dragstart on the card, dragover and drop on the column. */
function dragTo(name: string, title: string) {
  const store = new Map<string, string>();
  const dataTransfer = {
    setData: (type: string, value: string) => store.set(type, value),
    getData: (type: string) => store.get(type) ?? '',
    get types() {
      return [...store.keys()];
    },
    effectAllowed: 'all',
    dropEffect: 'none',
  };
  fireEvent.dragStart(card(name), { dataTransfer });
  const zone = column(title).querySelector('.board-column-cards')!;
  fireEvent.dragOver(zone, { dataTransfer });
  fireEvent.drop(zone, { dataTransfer });
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await createFirstAdmin(server.app);
});
afterAll(() => server.close());
beforeEach(() => pointAt(server.url));
afterEach(async () => {
  // Unmount first: the board's sync engine must stop before its database goes.
  cleanup();
  vi.restoreAllMocks();
  for (const email of usedEmails) await userDb(email).delete();
  closeUserDbs();
  usedEmails = [];
});

describe('the older employee board (/employees)', () => {
  it('greets with the local part of the email and sorts leads into the four columns, with counts', async () => {
    const employee = await newEmployee();
    const booked = await addLead(employee, { name: 'Vikram Rao' });
    await giveStatus(booked, 'Booking');
    await addLead(employee, { name: 'Nisha Pai', interestedIn: 'Site Visit', configuration: '3 BHK' });
    await addLead(employee, { name: 'Anita Desai' });
    openBoard(employee);

    await findCard('Anita Desai');
    expect(screen.getByText(`Welcome, ${employee.email.split('@')[0]}`)).toBeVisible();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Interested',
      'Site Visit Scheduled',
      'Booking / Token Done',
      'Not Interested',
    ]);
    expect(within(column('Booking / Token Done')).getByRole('article', { name: 'Vikram Rao' })).toBeVisible();
    // No status: the interestedIn value picks the column, else the first column.
    expect(within(column('Site Visit Scheduled')).getByRole('article', { name: 'Nisha Pai' })).toBeVisible();
    expect(within(column('Interested')).getByRole('article', { name: 'Anita Desai' })).toBeVisible();
    expect(columnCounting('Interested', 1)).toBeVisible();
    expect(columnCounting('Not Interested', 0)).toBeVisible();
    expect(within(screen.getByRole('main')).getByRole('button', { name: 'Logout' })).toBeVisible();
  });

  it('shows name, email, phone, location, configuration, assigned date and a Call link on a card', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, { name: 'Meera Iyer', email: 'meera@example.com' });
    openBoard(employee);
    const c = within(await findCard('Meera Iyer'));
    for (const text of ['meera@example.com', lead.phoneNo, 'Powai', '2 BHK'])
      expect(c.getByText(text)).toBeVisible();
    const assigned = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date(lead.assignedDate!),
    );
    expect(c.getByText(assigned)).toBeVisible();
    expect(c.getByRole('link', { name: 'Call Meera Iyer' })).toHaveAttribute('href', `tel:${lead.phoneNo}`);
  });

  it('says so when no lead is assigned yet', async () => {
    openBoard(await newEmployee());
    expect(await screen.findByText(m.empty, {}, { timeout: 5000 })).toBeVisible();
  });

  it('checks the note form, saves a note that moves the card, and shows the last saved text', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, { name: 'Kiran Shah' });
    const { user } = openBoard(employee);
    await findCard('Kiran Shah');
    const toggle = within(card('Kiran Shah')).getByRole('button', { name: 'Notes for Kiran Shah' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const form = within(screen.getByRole('form', { name: 'Notes for Kiran Shah' }));

    await user.click(form.getByRole('button', { name: 'Save Note' }));
    expect(form.getByLabelText('Description')).toHaveAccessibleDescription(m.descriptionRequired);
    expect(form.getByLabelText('Call Status')).toHaveAccessibleDescription(m.callStatusRequired);
    expect(form.getByLabelText('Client Status')).toHaveAccessibleDescription(m.clientStatusRequired);
    expect(await screen.findByText(messages.board.fixErrors)).toBeInTheDocument();

    await user.selectOptions(form.getByLabelText('Call Status'), 'Connected');
    await user.selectOptions(form.getByLabelText('Client Status'), 'Not Interested');
    await user.type(form.getByLabelText('Description'), 'Bought elsewhere');
    await user.click(form.getByRole('button', { name: 'Clear' }));
    expect(form.getByLabelText('Description')).toHaveValue('');
    expect(form.getByLabelText('Call Status')).toHaveValue('');

    await user.selectOptions(form.getByLabelText('Call Status'), 'Connected');
    await user.selectOptions(form.getByLabelText('Client Status'), 'Not Interested');
    await user.type(form.getByLabelText('Description'), 'Bought elsewhere');
    await user.click(form.getByRole('button', { name: 'Save Note' }));

    expect(await screen.findByText(messages.board.noteSaved)).toBeInTheDocument();
    await waitFor(() =>
      expect(within(column('Not Interested')).getByRole('article', { name: 'Kiran Shah' })).toBeVisible(),
    );
    expect(within(card('Kiran Shah')).getByText('Bought elsewhere')).toBeVisible();
    expect(await serverStatus(lead)).toBe('Not Interested');
  });

  it('moves a card by dragging it and sends {leadId, status, updatedBy}', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, { name: 'Ravi Kumar' });
    await giveStatus(lead, 'Interested');
    const sent: unknown[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      // The outbox sends the move as an op of POST /api/sync, its body the single call's (issue 18).
      if (request.url.endsWith('/api/sync')) {
        const batch = (await request.clone().json()) as { ops: { body: unknown }[] };
        sent.push(...batch.ops.map((op) => op.body));
      }
      return realFetch(input, init);
    });
    openBoard(employee);
    await findCard('Ravi Kumar');

    dragTo('Ravi Kumar', 'Site Visit Scheduled');
    expect(await screen.findByText(messages.board.statusUpdated)).toBeInTheDocument();
    expect(within(column('Site Visit Scheduled')).getByRole('article', { name: 'Ravi Kumar' })).toBeVisible();
    expect(sent).toEqual([{ leadId: lead.leadID, status: 'Site Visit', updatedBy: employee.email }]);
    expect(await serverStatus(lead)).toBe('Site Visit');
  });

  it('puts the card back and opens its notes when the first status needs a note', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, { name: 'Farah Khan' });
    openBoard(employee);
    await findCard('Farah Khan');
    dragTo('Farah Khan', 'Booking / Token Done');
    expect(await screen.findByText(messages.board.requireNote)).toBeInTheDocument();
    await waitFor(() =>
      expect(within(column('Interested')).getByRole('article', { name: 'Farah Khan' })).toBeVisible(),
    );
    expect(screen.getByRole('form', { name: 'Notes for Farah Khan' })).toBeVisible();
    expect(await serverStatus(lead)).toBeUndefined();
  });

  it('keeps working offline and sends the move when the network is back', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, { name: 'Leela Menon' });
    await giveStatus(lead, 'Interested');
    openBoard(employee);
    await findCard('Leela Menon');

    pointAt('http://127.0.0.1:9');
    dragTo('Leela Menon', 'Not Interested');
    await waitFor(() =>
      expect(within(column('Not Interested')).getByRole('article', { name: 'Leela Menon' })).toBeVisible(),
    );
    expect(await screen.findByText(syncMessages.waiting(1), {}, { timeout: 5000 })).toBeVisible();
    expect(await serverStatus(lead)).toBe('Interested');

    pointAt(server.url);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText(syncMessages.waiting(1))).not.toBeInTheDocument(), {
      timeout: 5000,
    });
    expect(await serverStatus(lead)).toBe('Not Interested');
  });
});
