import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../../../contract/messages';
import { Role } from '../../../../contract/roles';
import { saveSession } from '../../../../src/lib/session';
import { type Account, createAccount, createFirstAdmin, type TestServer } from '../../../helpers/test-server';
import { pointApiAt, startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

// Issue 19: the Leads List filtered by campaign, employee and status, against the real API.
let server: TestServer;
let admin: Account;
let asha: Account;
let ravi: Account;

beforeAll(async () => {
  server = await startApi();
  admin = await createFirstAdmin(server.app);
  asha = await createAccount(server.app, admin, Role.Employee, { email: 'asha@agency.test' });
  ravi = await createAccount(server.app, admin, Role.Employee, { email: 'ravi@agency.test' });
  const leads: [string, string, Account | null][] = [
    ['Asha', 'Green Acres', asha],
    ['Bala', 'Green Acres', ravi],
    ['Chitra', 'Hill View', asha],
    ['Dev', 'Hill View', null],
    ['Esha', 'Green Acres', null],
    ['Farah', 'Green Acres', asha],
    ['Gopal', '', ravi],
  ];
  const rows = await server.app.deps.db
    .insertInto('leads')
    .values(
      leads.map(([name, siteVisit, holder], i) => ({
        name,
        email: `${name.toLowerCase()}@example.com`,
        phone: `97${String(i + 1).padStart(8, '0')}`,
        configuration: '2 BHK',
        site_visit: siteVisit,
        location: 'Baner',
        interested_in: '',
        assigned_to_id: holder?.id ?? null,
        assigned_date: holder ? new Date().toISOString() : null,
        created_at: new Date().toISOString(),
      })),
    )
    .returning(['id', 'name'])
    .execute();
  // Farah's holder marks her Interested, as from the board.
  const interested = await server.app.deps.db
    .selectFrom('client_statuses')
    .select('id')
    .where('name', '=', 'Interested')
    .executeTakeFirstOrThrow();
  const farah = rows.find((r) => r.name === 'Farah')!;
  const res = await server.app.inject({
    method: 'PUT',
    url: `/api/LeadStatus/leads/${farah.id}/status`,
    payload: { clientStatusId: interested.id, notes: 'Keen' },
    headers: { authorization: `Bearer ${asha.token}` },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => server.close());
beforeEach(() => {
  pointApiAt(server.url);
  saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
});

const nameCells = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]!.textContent);
const settle = { timeout: 3000 };

/** Opens the list once the filters' choices have arrived. */
async function openList() {
  const view = renderApp('/leads');
  await screen.findByRole('heading', { name: 'Leads List' });
  await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Bala', 'Chitra', 'Dev', 'Esha']));
  await screen.findByRole('option', { name: 'Hill View' });
  await screen.findByRole('option', { name: 'asha@agency.test' });
  await screen.findByRole('option', { name: 'Interested' });
  return view;
}

describe('Leads List filters', () => {
  it('shows only the leads of the chosen campaign, employee and status, from page 1', async () => {
    const { user } = await openList();
    const filters = within(screen.getByRole('group', { name: 'Filter leads' }));
    const campaign = filters.getByLabelText('Campaign');
    const employee = filters.getByLabelText('Employee');
    const status = filters.getByLabelText('Status');
    for (const select of [campaign, employee, status]) {
      expect(select).toHaveDisplayValue('All');
    }
    expect(
      within(campaign)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All', 'Green Acres', 'Hill View', 'No campaign']);

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(nameCells()).toEqual(['Farah', 'Gopal']));
    await user.selectOptions(campaign, 'Hill View');
    await waitFor(() => expect(nameCells()).toEqual(['Chitra', 'Dev']));
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('button', { name: 'Page 2' })).not.toBeInTheDocument();
    expect(screen.getByText('Showing 1–2 of 2')).toBeVisible();

    await user.selectOptions(employee, 'asha@agency.test');
    await waitFor(() => expect(nameCells()).toEqual(['Chitra']));
    await user.selectOptions(campaign, 'All');
    await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Chitra', 'Farah']));
    await user.selectOptions(status, 'Interested');
    await waitFor(() => expect(nameCells()).toEqual(['Farah']));
    await user.selectOptions(status, 'New');
    await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Chitra']));

    await user.selectOptions(employee, 'Unassigned');
    await waitFor(() => expect(nameCells()).toEqual(['Dev', 'Esha']));
    await user.selectOptions(status, 'All');
    await user.selectOptions(campaign, 'No campaign');
    await user.selectOptions(employee, 'ravi@agency.test');
    await waitFor(() => expect(nameCells()).toEqual(['Gopal']));
  });

  it('filters within the search', async () => {
    const { user } = await openList();
    await user.selectOptions(screen.getByLabelText('Campaign'), 'Green Acres');
    await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Bala', 'Esha', 'Farah']));
    await user.type(screen.getByPlaceholderText(messages.leadsList.searchPlaceholder), 'sha');
    await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Esha']), settle);
  });

  it('says when nothing matches and clears the filters on request', async () => {
    const { user } = await openList();
    await user.selectOptions(screen.getByLabelText('Campaign'), 'Hill View');
    await user.selectOptions(screen.getByLabelText('Status'), 'Interested');
    expect(await screen.findByText('No leads match these filters.')).toBeVisible();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Bala', 'Chitra', 'Dev', 'Esha']));
    expect(screen.getByLabelText('Campaign')).toHaveDisplayValue('All');
    expect(screen.getByLabelText('Status')).toHaveDisplayValue('All');
    expect(screen.queryByText('No leads match these filters.')).not.toBeInTheDocument();
  });

  it('keeps the page and filters in the address, so the same address shows the same list', async () => {
    const { user, location, unmount } = await openList();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(nameCells()).toEqual(['Farah', 'Gopal']));
    expect(location.search).toBe('?page=2');
    await user.selectOptions(screen.getByLabelText('Employee'), 'asha@agency.test');
    await user.selectOptions(screen.getByLabelText('Status'), 'New');
    await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Chitra']));
    await user.selectOptions(screen.getByLabelText('Per page'), '25');
    const address = `/leads${location.search}`;
    expect(address).toBe(`/leads?employee=${asha.id}&status=0&per=25`);
    unmount();

    // Back from a lead's page, a reload or a shared link: the same list.
    renderApp(address);
    await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Chitra']));
    expect(screen.getByLabelText('Employee')).toHaveDisplayValue('asha@agency.test');
    expect(screen.getByLabelText('Status')).toHaveDisplayValue('New');
    expect(screen.getByLabelText('Per page')).toHaveDisplayValue('25');
  });

  it('keeps the filters through a search, and shows the last page for a page past the end', async () => {
    const { user, location, unmount } = await openList();
    await user.selectOptions(screen.getByLabelText('Campaign'), 'No campaign');
    await waitFor(() => expect(nameCells()).toEqual(['Gopal']));
    expect(location.search).toBe('?campaign=');
    await user.type(screen.getByPlaceholderText(messages.leadsList.searchPlaceholder), 'gop');
    await waitFor(() => expect(location.search).toBe('?campaign=&search=gop'), settle);
    expect(nameCells()).toEqual(['Gopal']);
    unmount();

    const { location: later } = renderApp('/leads?page=9&status=abc');
    await waitFor(() => expect(nameCells()).toEqual(['Farah', 'Gopal']));
    expect(later.search).toBe('?page=2');
    expect(screen.getByLabelText('Status')).toHaveDisplayValue('All');
  });
});
