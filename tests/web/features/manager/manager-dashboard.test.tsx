import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../../contract/roles';
import { saveSession } from '../../../../src/lib/session';
import { type Account, createAccount, createFirstAdmin, type TestServer } from '../../../helpers/test-server';
import { insertLead, optionId } from '../../../server/routes/staff-support';
import { pointApiAt, startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

let server: TestServer;
let admin: Account;
let manager: Account;
let asha: Account;
let ravi: Account;

beforeAll(async () => {
  server = await startApi();
  admin = await createFirstAdmin(server.app);
  manager = await createAccount(server.app, admin, Role.Manager, { email: 'manager@agency.test' });
  asha = await createAccount(server.app, admin, Role.Employee, { email: 'asha@agency.test' });
  ravi = await createAccount(server.app, admin, Role.Employee, { email: 'ravi@agency.test' });
  const connected = await optionId(server.app, 'call_statuses', 'Connected');
  const interested = await optionId(server.app, 'client_statuses', 'Interested');
  for (const [who, count] of [
    [asha, 1],
    [ravi, 3],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const lead = await insertLead(server.app, who, { siteVisit: 'Riverside' });
      await server.app.inject({
        method: 'POST',
        url: '/api/LeadStatus',
        payload: { leadId: lead, notes: 'Called', callStatusId: connected, clientStatusId: interested },
        headers: { authorization: `Bearer ${who.token}` },
      });
    }
  }
  await insertLead(server.app, null, { siteVisit: 'Hill View' });
});
afterAll(() => server.close());

describe('Manager dashboard', () => {
  it('shows per-employee figures, sorts them, and drills down into a campaign and an employee', async () => {
    pointApiAt(server.url);
    saveSession({ token: manager.token, email: manager.email, roleId: Role.Manager });
    const { user } = renderApp('/manager');
    await screen.findByRole('heading', { name: 'Team activity' });
    const employees = await screen.findByRole('region', { name: 'Employees' });
    const table = within(employees).getByRole('table');
    const names = () =>
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent);
    await waitFor(() => expect(names()).toEqual(['ravi@agency.test', 'asha@agency.test']));
    const raviRow = within(table).getByRole('rowheader', { name: 'ravi@agency.test' }).closest('tr')!;
    expect(
      within(raviRow)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['3', '3', '3', '0', '0', '0', '0']);

    await user.click(within(table).getByRole('button', { name: 'Notes' }));
    expect(names()).toEqual(['asha@agency.test', 'ravi@agency.test']);
    expect(within(table).getByRole('columnheader', { name: /Notes/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );

    const funnel = screen.getByRole('region', { name: 'Funnel' });
    expect(within(funnel).getByText('4', { selector: '.manager-bar-value' })).toBeVisible();

    const campaigns = screen.getByRole('region', { name: 'Campaigns' });
    await user.click(within(campaigns).getByRole('button', { name: 'Riverside' }));
    const drill = await screen.findByRole('region', { name: /Leads of Riverside/ });
    await within(drill).findByText('(4)');

    await user.click(within(table).getByRole('button', { name: 'asha@agency.test' }));
    await screen.findByRole('region', { name: /Leads of asha@agency.test/ });
  });

  it('asks for a complete custom range', async () => {
    pointApiAt(server.url);
    saveSession({ token: manager.token, email: manager.email, roleId: Role.Manager });
    const { user } = renderApp('/manager');
    await screen.findByRole('region', { name: 'Employees' });
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    await user.clear(screen.getByLabelText('From'));
    expect(await screen.findByText('Choose a start and an end date, the start first.')).toBeVisible();
  });
});
