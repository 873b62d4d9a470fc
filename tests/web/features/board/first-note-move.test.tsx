import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { leadStatusMessages } from '../../../../contract/lead-status';
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
import { startFlakyGateway } from '../sync/flaky-gateway';

// Issue 18 item 3: a lead with no status record gets the Add Note modal at the moment of the
// move, and the saved note is what moves it (one outbox row, applied once).

const m = messages.board;
let server: TestServer;
let gateway: Awaited<ReturnType<typeof startFlakyGateway>>;
let admin: Account;
let usedEmails: string[] = [];

const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;

async function addLead(employee: Account, name: string): Promise<Lead> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(admin),
    payload: { name, phoneNo: phone(), email: 'buyer@example.com', assignedTo: employee.email },
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

/** What the server holds for the lead: its status records (by client status name) and its notes. */
async function stored(leadId: number) {
  const { db } = server.app.deps;
  const statuses = await db
    .selectFrom('lead_statuses')
    .innerJoin('client_statuses', 'client_statuses.id', 'lead_statuses.client_status_id')
    .select('client_statuses.name')
    .where('lead_id', '=', leadId)
    .execute();
  const notes = await db.selectFrom('lead_notes').select('notes').where('lead_id', '=', leadId).execute();
  return { statuses: statuses.map((s) => s.name), notes: notes.map((n) => n.notes) };
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

const column = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name} \\d+ leads?$`) });
const showsCard = (title: string, name: string) =>
  waitFor(() => expect(within(column(title)).getByRole('article', { name })).toBeVisible());

async function moveWithMenu(user: UserEvent, leadName: string, target: string) {
  await user.click(screen.getByRole('button', { name: `Move ${leadName} to…` }));
  await user.click(
    within(screen.getByRole('menu', { name: `Move ${leadName} to` })).getByRole('menuitem', { name: target }),
  );
}

/** Fills the rest of the Add Note form (the client status is already chosen) and saves it. */
async function saveFirstNote(user: UserEvent, dialog: HTMLElement, text: string) {
  await user.selectOptions(within(dialog).getByLabelText('Call Status'), 'Connected');
  await user.click(within(dialog).getByRole('checkbox', { name: 'Andheri' }));
  await user.click(within(dialog).getByRole('checkbox', { name: '2 BHK' }));
  await user.type(within(dialog).getByLabelText('Description'), text);
  await user.click(within(dialog).getByRole('button', { name: 'Save Note' }));
  // Shown once the save (and the flush it starts) has finished.
  await waitFor(() =>
    expect(within(dialog).getByRole('region', { name: 'Last Saved' })).toHaveTextContent(text),
  );
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
afterEach(async () => {
  cleanup();
  gateway.reset();
  for (const email of usedEmails) await userDb(email).delete();
  closeUserDbs();
  usedEmails = [];
});

describe('moving a lead that has no status record', () => {
  beforeAll(() => configureApi({ baseUrl: `${server.url}/api`, onUnauthorized: () => {} }));

  it('opens the Add Note modal at once from "Move to…", and the saved note moves the card', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, 'Rohan Mehta');
    const { user } = openBoard(employee);
    await screen.findByRole('article', { name: 'Rohan Mehta' }, { timeout: 5000 });
    await moveWithMenu(user, 'Rohan Mehta', 'Booking');

    const dialog = await screen.findByRole('dialog', { name: `Add Note — Lead #${lead.leadID}` });
    expect(within(dialog).getByLabelText('Client Status')).toHaveDisplayValue('Booking');
    expect(
      within(dialog).getByText(leadStatusMessages.firstNoteMoves('Rohan Mehta', 'Booking')),
    ).toBeVisible();
    // Nothing was sent or moved yet: the server was never asked for a move it must refuse.
    expect(screen.queryByText(m.requireNote)).not.toBeInTheDocument();
    expect(within(column('New Leads')).getByRole('article', { name: 'Rohan Mehta' })).toBeVisible();
    expect(await userDb(employee.email).outbox.count()).toBe(0);

    await saveFirstNote(user, dialog, 'Paid the token amount');
    expect(await screen.findByText(m.noteSaved)).toBeInTheDocument();
    await showsCard('Booking', 'Rohan Mehta');
    expect(await stored(lead.leadID)).toEqual({ statuses: ['Booking'], notes: ['Paid the token amount'] });
  });

  it('leaves the card where it was, and sends nothing, when the modal is closed', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, 'Leela Menon');
    const { user } = openBoard(employee);
    await screen.findByRole('article', { name: 'Leela Menon' }, { timeout: 5000 });
    await moveWithMenu(user, 'Leela Menon', 'Interested');
    const dialog = await screen.findByRole('dialog', { name: `Add Note — Lead #${lead.leadID}` });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Focus goes back to the button the move started from.
    expect(screen.getByRole('button', { name: 'Move Leela Menon to…' })).toHaveFocus();
    expect(within(column('New Leads')).getByRole('article', { name: 'Leela Menon' })).toBeVisible();
    expect(column('Interested')).toHaveAccessibleName('Interested 0 leads');
    expect(await userDb(employee.email).outbox.count()).toBe(0);
    expect(await stored(lead.leadID)).toEqual({ statuses: [], notes: [] });
  });

  it('asks for the note offline too, and the note and status reach the server once as one write', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, 'Ishaan Gupta');
    configureApi({ baseUrl: `${gateway.url}/api`, onUnauthorized: () => {} });
    const { user } = openBoard(employee);
    await screen.findByRole('article', { name: 'Ishaan Gupta' }, { timeout: 5000 });

    gateway.always('down');
    await moveWithMenu(user, 'Ishaan Gupta', 'Site Visit');
    const dialog = await screen.findByRole('dialog', { name: `Add Note — Lead #${lead.leadID}` });
    expect(within(dialog).getByLabelText('Client Status')).toHaveDisplayValue('Site Visit');
    await saveFirstNote(user, dialog, 'Visit on Sunday');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    const moved = await within(column('Site Visit')).findByRole('article', { name: 'Ishaan Gupta' });
    expect(within(moved).getByText(syncMessages.pending)).toBeVisible();
    const rows = await userDb(employee.email).outbox.toArray();
    expect(rows.map((r) => [r.kind, r.payload.clientStatusId !== undefined])).toEqual([['note', true]]);

    gateway.always('pass');
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText(syncMessages.waiting(1))).not.toBeInTheDocument());
    await waitFor(() =>
      expect(
        within(column('Site Visit')).queryByText(syncMessages.pending, { exact: true }),
      ).not.toBeInTheDocument(),
    );
    expect(within(column('Site Visit')).getByRole('article', { name: 'Ishaan Gupta' })).toBeVisible();
    expect(screen.queryByText(m.requireNote)).not.toBeInTheDocument();
    expect(await stored(lead.leadID)).toEqual({ statuses: ['Site Visit'], notes: ['Visit on Sunday'] });
    const sent = gateway.writes().filter((r) => r.step === 'pass');
    // One request, one op: the note carrying the status, not a note and a separate status change.
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/sync']);
    const { ops } = JSON.parse(sent[0]!.body) as { ops: { kind: string; body: Record<string, unknown> }[] };
    expect(ops.map((o) => [o.kind, o.body.notes, o.body.clientStatusId !== undefined])).toEqual([
      ['note', 'Visit on Sunday', true],
    ]);
  });

  it('moves a lead that already has a status at once, without asking for a note', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, 'Kiran Shah');
    await giveStatus(lead, 'Interested');
    const { user } = openBoard(employee);
    await screen.findByRole('article', { name: 'Kiran Shah' }, { timeout: 5000 });
    await moveWithMenu(user, 'Kiran Shah', 'Booking');
    expect(await screen.findByText(m.statusUpdated)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await showsCard('Booking', 'Kiran Shah');
  });

  it('after "Add to", keeps the new lead in New Leads when the note modal is closed, and moves it when a note is saved', async () => {
    const employee = await newEmployee();
    const { user } = openBoard(employee);
    await user.click(await screen.findByRole('button', { name: 'Add to Interested' }, { timeout: 5000 }));
    const add = await screen.findByRole('dialog', { name: 'Add New Lead' });
    await user.type(within(add).getByLabelText('Name'), 'Tara Nair');
    await user.type(within(add).getByLabelText('Phone'), phone());
    await user.click(within(add).getByRole('button', { name: 'Add Lead' }));

    let dialog = await screen.findByRole('dialog', { name: /^Add Note — Lead #\d+$/ });
    expect(within(dialog).getByLabelText('Client Status')).toHaveDisplayValue('Interested');
    expect(
      within(dialog).getByText(leadStatusMessages.firstNoteMoves('Tara Nair', 'Interested')),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await showsCard('New Leads', 'Tara Nair');
    expect(column('Interested')).toHaveAccessibleName('Interested 0 leads');

    // The move asks again, and this time the note is saved.
    await moveWithMenu(user, 'Tara Nair', 'Interested');
    dialog = await screen.findByRole('dialog', { name: /^Add Note — Lead #\d+$/ });
    await saveFirstNote(user, dialog, 'Walked in, wants 2 BHK');
    await showsCard('Interested', 'Tara Nair');
    const leadId = Number(
      /#(\d+)/.exec(within(dialog).getByRole('heading', { level: 2 }).textContent ?? '')?.[1],
    );
    expect(await stored(leadId)).toEqual({ statuses: ['Interested'], notes: ['Walked in, wants 2 BHK'] });
  });

  it('still reverts and asks for the note when the server knows what the device could not', async () => {
    const employee = await newEmployee();
    const lead = await addLead(employee, 'Dev Patel');
    await giveStatus(lead, 'Interested');
    const { user } = openBoard(employee);
    await screen.findByRole('article', { name: 'Dev Patel' }, { timeout: 5000 });
    await showsCard('Interested', 'Dev Patel');
    // The status record goes away on the server after the device last saw it.
    const { db } = server.app.deps;
    await db.deleteFrom('lead_notes').where('lead_id', '=', lead.leadID).execute();
    await db.deleteFrom('lead_statuses').where('lead_id', '=', lead.leadID).execute();

    await moveWithMenu(user, 'Dev Patel', 'Booking');
    expect(await screen.findByText(m.requireNote)).toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: `Add Note — Lead #${lead.leadID}` });
    expect(within(dialog).getByLabelText('Client Status')).toHaveDisplayValue('Booking');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(column('Booking')).toHaveAccessibleName('Booking 0 leads'));
    await showsCard('Interested', 'Dev Patel');
    expect(await stored(lead.leadID)).toEqual({ statuses: [], notes: [] });
  });
});
