import 'fake-indexeddb/auto';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../../contract/roles';
import { userDb } from '../../../../src/lib/db';
import { saveSession } from '../../../../src/lib/session';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  type TestServer,
} from '../../../helpers/test-server';
import { insertLead, optionId } from '../../../server/routes/staff-support';
import { pointApiAt, startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

let server: TestServer;
let admin: Account;
let employee: Account;

beforeAll(async () => {
  server = await startApi();
  admin = await createFirstAdmin(server.app);
  employee = await createAccount(server.app, admin, Role.Employee);
});
afterAll(() => server.close());

function signIn(account: Account) {
  pointApiAt(server.url);
  saveSession({ token: account.token, email: account.email, roleId: account.roleId });
}

describe('the lead page (/leads/:id)', () => {
  it('shows how to reach the lead, where it stands, and its timeline', async () => {
    const leadId = await insertLead(server.app, employee);
    const interested = await optionId(server.app, 'client_statuses', 'Interested');
    const callStatus = (
      await server.app.deps.db.selectFrom('call_statuses').select('id').executeTakeFirstOrThrow()
    ).id;
    const note = await server.app.inject({
      method: 'POST',
      url: '/api/LeadStatus',
      payload: {
        leadId,
        notes: 'Asked for the brochure',
        callStatusId: callStatus,
        clientStatusId: interested,
      },
      headers: bearer(employee),
    });
    expect(note.statusCode).toBeLessThan(300);
    const remindAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const reminder = await server.app.inject({
      method: 'POST',
      url: '/api/LeadStatus/add-reminder',
      payload: { leadId, reminderTime: remindAt, note: 'Send price list' },
      headers: bearer(employee),
    });
    expect(reminder.statusCode).toBe(201);
    const { name, phone } = await server.app.deps.db
      .selectFrom('leads')
      .select(['name', 'phone'])
      .where('id', '=', leadId)
      .executeTakeFirstOrThrow();

    signIn(admin);
    renderApp(`/leads/${leadId}`);
    expect(await screen.findByRole('heading', { level: 1, name })).toBeVisible();
    expect(screen.getByRole('link', { name: `Call ${name}` })).toHaveAttribute('href', `tel:${phone}`);
    expect(screen.getByRole('link', { name: `WhatsApp ${name}` }).getAttribute('href')).toContain(
      `https://wa.me/91${phone}`,
    );
    const facts = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(facts('Status')).toHaveTextContent('Interested');
    expect(facts('Held by')).toHaveTextContent(employee.email);
    expect(facts('Next follow-up')).toHaveTextContent('Send price list');

    const timeline = screen.getByRole('list', { name: 'Timeline' });
    const items = within(timeline)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('.lead-timeline-title')?.textContent);
    expect(items).toEqual([
      'Added',
      `Assigned to ${employee.email}`,
      'Status set to Interested',
      expect.stringMatching(new RegExp(`^Note by ${employee.email.replace(/[.+]/g, '\\$&')}`)),
      expect.stringMatching(/^Follow-up set for /),
    ]);
    expect(within(timeline).getByText('Asked for the brochure')).toBeVisible();
  });

  it('tells an employee a lead they do not hold is not found', async () => {
    const other = await createAccount(server.app, admin, Role.Employee);
    const leadId = await insertLead(server.app, other);
    signIn(employee);
    renderApp(`/leads/${leadId}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Lead not found.');
    expect(screen.queryByRole('list', { name: 'Timeline' })).toBeNull();
  });

  it('offline, shows the lead as the board cached it and says the timeline needs a connection', async () => {
    const leadId = await insertLead(server.app, employee);
    const lead = (await server.app.inject({ url: '/api/Admin/leads', headers: bearer(employee) }))
      .json()
      .find((l: { leadID: number }) => l.leadID === leadId);
    await userDb(employee.email).leads.put({ ...lead, base: lead, pendingCount: 0, attention: 0 });
    saveSession({ token: employee.token, email: employee.email, roleId: Role.Employee });
    // Nothing listens on port 9: the request fails as it does without a connection.
    pointApiAt('http://127.0.0.1:9');
    renderApp(`/leads/${leadId}`);
    expect(await screen.findByRole('heading', { level: 1, name: lead.name })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('the timeline needs a connection');
    expect(screen.getByRole('link', { name: `Call ${lead.name}` })).toBeVisible();
  });
});
