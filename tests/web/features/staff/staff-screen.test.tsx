import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../../contract/roles';
import { staffMessages } from '../../../../contract/staff';
import { saveSession } from '../../../../src/lib/session';
import { type Account, createAccount, createFirstAdmin, type TestServer } from '../../../helpers/test-server';
import { insertLead } from '../../../server/routes/staff-support';
import { pointApiAt, startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

let server: TestServer;
let admin: Account;
let manager: Account;

beforeAll(async () => {
  server = await startApi();
  admin = await createFirstAdmin(server.app);
  manager = await createAccount(server.app, admin, Role.Manager);
});
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

function signIn(account: Account) {
  pointApiAt(server.url);
  saveSession({ token: account.token, email: account.email, roleId: account.roleId });
}

/** An account's row: its row header holds the address (and the role under it). */
async function rowOf(email: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = screen.getAllByRole('rowheader').find((h) => h.textContent?.startsWith(email));
    expect(found).toBeDefined();
  });
  return found!.closest('tr')!;
}
const holderOf = async (leadId: number) =>
  (
    await server.app.deps.db
      .selectFrom('leads')
      .select('assigned_to_id')
      .where('id', '=', leadId)
      .executeTakeFirstOrThrow()
  ).assigned_to_id;

describe('Employees screen', () => {
  it('handles a resignation: deactivate, then move the open leads on', async () => {
    const leaving = await createAccount(server.app, admin, Role.Employee);
    const taker = await createAccount(server.app, admin, Role.Employee);
    const leads = [await insertLead(server.app, leaving), await insertLead(server.app, leaving)];
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    signIn(admin);
    const { user } = renderApp('/staff');
    await screen.findByRole('heading', { name: 'Employees' });

    const row = await rowOf(leaving.email);
    expect(within(row).getByText('Active')).toBeVisible();
    expect(within(row).getByText(/^XXXX XXXX \d{4}$/)).toBeVisible();
    await user.click(within(row).getByRole('button', { name: `Deactivate ${leaving.email}` }));
    expect(window.confirm).toHaveBeenCalledWith(expect.stringContaining('Their 2 open leads stay with them'));

    const panel = await screen.findByRole('region', { name: `Reassign leads of ${leaving.email}` });
    expect(within(await rowOf(leaving.email)).getByText('Inactive')).toBeVisible();
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Move them to' }), String(taker.id));
    await user.click(within(panel).getByRole('button', { name: 'Move 2 leads' }));

    expect(await screen.findByText(`Moved 2 leads: ${taker.email} (2)`)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: /Reassign leads of/ })).toBeNull());
    expect(await holderOf(leads[0]!)).toBe(taker.id);
    expect(await holderOf(leads[1]!)).toBe(taker.id);
    await waitFor(async () =>
      expect(within(await rowOf(taker.email)).getByRole('cell', { name: '2' })).toBeVisible(),
    );
  });

  it('moves only the leads chosen, and reactivates an account', async () => {
    const holder = await createAccount(server.app, admin, Role.Employee);
    const taker = await createAccount(server.app, admin, Role.Employee);
    const keep = await insertLead(server.app, holder);
    const move = await insertLead(server.app, holder);
    const moveName = (
      await server.app.deps.db
        .selectFrom('leads')
        .select('name')
        .where('id', '=', move)
        .executeTakeFirstOrThrow()
    ).name;
    await server.app.inject({
      method: 'POST',
      url: `/api/Admin/staff/${holder.id}/deactivate`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    signIn(admin);
    const { user } = renderApp('/staff');
    const row = await rowOf(holder.email);
    await user.click(within(row).getByRole('button', { name: `Reassign leads of ${holder.email}` }));
    const panel = await screen.findByRole('region', { name: `Reassign leads of ${holder.email}` });
    await user.click(within(panel).getByRole('radio', { name: 'Only the leads I choose' }));
    await user.click(await within(panel).findByRole('checkbox', { name: new RegExp(moveName) }));
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Move them to' }), String(taker.id));
    await user.click(within(panel).getByRole('button', { name: 'Move 1 lead' }));
    await screen.findByText(`Moved 1 lead: ${taker.email} (1)`);
    expect(await holderOf(move)).toBe(taker.id);
    expect(await holderOf(keep)).toBe(holder.id);

    await user.click(
      within(await rowOf(holder.email)).getByRole('button', { name: `Reactivate ${holder.email}` }),
    );
    expect(await screen.findByText(staffMessages.reactivated)).toBeInTheDocument();
    await waitFor(async () => expect(within(await rowOf(holder.email)).getByText('Active')).toBeVisible());
  });

  it('sends a password reset link from the row', async () => {
    const worker = await createAccount(server.app, admin, Role.Employee);
    signIn(admin);
    const { user } = renderApp('/staff');
    const row = await rowOf(worker.email);
    await user.click(
      within(row).getByRole('button', { name: `Send a password reset link to ${worker.email}` }),
    );
    expect(await screen.findByText(staffMessages.resetSent(worker.email))).toBeInTheDocument();
    await server.app.deps.passwordReset.idle();
    const links = await server.app.deps.db
      .selectFrom('password_resets')
      .select('user_id')
      .where('user_id', '=', worker.id)
      .execute();
    expect(links).toHaveLength(1);
  });

  it('is read only for a Manager', async () => {
    signIn(manager);
    renderApp('/staff');
    await rowOf(admin.email);
    expect(screen.getByText('Read only: an Admin manages accounts.')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Deactivate/ })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});
