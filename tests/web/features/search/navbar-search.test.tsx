import { screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Role } from '../../../../contract/roles';
import { saveSession } from '../../../../src/lib/session';
import { type Account, createAccount, createFirstAdmin, type TestServer } from '../../../helpers/test-server';
import { pointApiAt, startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

let server: TestServer;
let admin: Account;
let employee: Account;
let manager: Account;

beforeAll(async () => {
  server = await startApi();
  admin = await createFirstAdmin(server.app);
  employee = await createAccount(server.app, admin, Role.Employee);
  manager = await createAccount(server.app, admin, Role.Manager);
});
afterAll(() => server.close());
beforeEach(() => pointApiAt(server.url));
afterEach(() => server.app.deps.db.deleteFrom('leads').execute());

async function addLead(name: string, phone: string, assignedTo: Account | null) {
  await server.app.deps.db
    .insertInto('leads')
    .values({
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
      phone,
      assigned_to_id: assignedTo?.id ?? null,
      configuration: '',
      site_visit: '',
      location: '',
      interested_in: '',
      created_at: new Date().toISOString(),
    })
    .execute();
}

async function search(account: Account, path: string, q: string) {
  saveSession({ token: account.token, email: account.email, roleId: account.roleId });
  const view = renderApp(path);
  await view.user.type(await screen.findByRole('searchbox', { name: 'Search leads' }), q);
  await view.user.click(screen.getByRole('button', { name: 'Search' }));
  return view;
}

describe('navbar search', () => {
  it('shows an employee only their own matching leads, by name or phone, with a Call link', async () => {
    await addLead('Meera Kapoor', '9811100001', employee);
    await addLead('Meera Shah', '9811100002', null);
    await addLead('Mohan Das', '9811100003', employee);
    const { user, location } = await search(employee, '/employee', 'MEERA');

    const results = within(await screen.findByRole('region', { name: 'Results for “MEERA”' }));
    expect(await results.findByText('1 lead found.')).toBeVisible();
    expect(results.getByText('Meera Kapoor')).toBeVisible();
    expect(results.queryByText('Meera Shah')).not.toBeInTheDocument();
    expect(results.getByRole('link', { name: 'Call Meera Kapoor' })).toHaveAttribute(
      'href',
      'tel:9811100001',
    );
    expect(location.pathname).toBe('/employee');

    await user.clear(screen.getByRole('searchbox', { name: 'Search leads' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search leads' }), '00003');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const byPhone = within(await screen.findByRole('region', { name: 'Results for “00003”' }));
    expect(await byPhone.findByText('Mohan Das')).toBeVisible();

    await user.click(byPhone.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: /Results for/ })).not.toBeInTheDocument();
  });

  it('says when nothing matches, and closes on Escape', async () => {
    const { user } = await search(employee, '/employee', 'nobody');
    expect(await screen.findByText('No leads match this search.')).toBeVisible();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: /Results for/ })).not.toBeInTheDocument();
  });

  it('lets a Manager search every lead', async () => {
    await addLead('Meera Kapoor', '9811100001', employee);
    await addLead('Meera Shah', '9811100002', null);
    await search(manager, '/employee', 'meera');
    const results = within(await screen.findByRole('region', { name: 'Results for “meera”' }));
    expect(await results.findByText('2 leads found.')).toBeVisible();
  });

  it('opens the Leads List for an Admin', async () => {
    await addLead('Meera Kapoor', '9811100001', employee);
    const { location } = await search(admin, '/dashboard', 'meera');
    await screen.findByRole('heading', { name: 'Leads List' });
    expect(location.pathname).toBe('/leads');
    expect(new URLSearchParams(location.search).get('search')).toBe('meera');
    expect(await screen.findByRole('cell', { name: 'Meera Kapoor' })).toBeVisible();
  });

  it('says so when the search cannot reach the server', async () => {
    pointApiAt('http://127.0.0.1:9');
    await search(employee, '/employee', 'meera');
    expect(await screen.findByText('Search failed. Please try again.', {}, { timeout: 5000 })).toBeVisible();
  });
});
