import { screen, waitFor, within } from '@testing-library/react';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  type MockInstance,
  vi,
} from 'vitest';
import { messages } from '../../../../contract/messages';
import { Role } from '../../../../contract/roles';
import { saveSession } from '../../../../src/lib/session';
import { type Account, createFirstAdmin, type TestServer } from '../../../helpers/test-server';
import { pointApiAt, startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

const m = messages.leadsList;
let server: TestServer;
let admin: Account;
let phoneSeq = 0;
let consoleError: MockInstance;

beforeAll(async () => {
  server = await startApi();
  admin = await createFirstAdmin(server.app);
});
afterAll(() => server.close());
beforeEach(() => {
  pointApiAt(server.url);
  saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
  // The spec logs these failures; the tests read what is logged instead of printing it.
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server.app.deps.db.deleteFrom('leads').execute();
});

/** Leads arrive by spreadsheet upload in the product; here they are written straight to the table. */
async function addLeads(...names: string[]) {
  const rows = names.map((name) => ({
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`,
    phone: `98${String(++phoneSeq).padStart(8, '0')}`,
    configuration: '2 BHK',
    site_visit: 'Green Acres',
    location: 'Baner',
    interested_in: '2 BHK',
    created_at: new Date().toISOString(),
  }));
  return server.app.deps.db.insertInto('leads').values(rows).returningAll().execute();
}

const rows = () => screen.getAllByRole('row').slice(1);
const nameCells = () => rows().map((row) => within(row).getAllByRole('cell')[1]!.textContent);
const leadRow = (name: string) => screen.getByRole('cell', { name }).closest('tr')!;
// Typing waits out the 300 ms search debounce before the request leaves.
const settle = { timeout: 3000 };
const leadsToaster = () => document.querySelector<HTMLElement>('[data-rht-toaster="leads-list"]')!;

async function openList(path = '/leads') {
  const view = renderApp(path);
  await screen.findByRole('heading', { name: 'Leads List' });
  return view;
}

describe('Leads List', () => {
  it('shows ID, Name, Email, Phone and Actions for five leads a page, with numbered pages', async () => {
    const leads = await addLeads('Asha', 'Bala', 'Chitra', 'Dev', 'Esha', 'Farah', 'Gopal');
    const { user } = await openList();
    expect(screen.getByPlaceholderText(m.searchPlaceholder)).toBeVisible();
    await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Bala', 'Chitra', 'Dev', 'Esha']));
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'ID',
      'Name',
      'Email',
      'Phone',
      'Actions',
    ]);
    const first = within(rows()[0]!).getAllByRole('cell');
    expect(first.map((c) => c.textContent).slice(0, 4)).toEqual([
      String(leads[0]!.id),
      'Asha',
      'asha@example.com',
      leads[0]!.phone,
    ]);
    expect(within(rows()[0]!).getByRole('button', { name: 'Edit Asha' })).toHaveClass('button-warning');
    expect(within(rows()[0]!).getByRole('button', { name: 'Delete Asha' })).toHaveClass('button-danger');

    const pages = within(screen.getByRole('navigation', { name: 'Pages' }));
    expect(pages.getAllByRole('button').map((b) => b.textContent)).toEqual(['1', '2']);
    expect(pages.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    await user.click(pages.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(nameCells()).toEqual(['Farah', 'Gopal']));
    expect(pages.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows 25 or 100 a page when asked, from page 1', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `Lead ${String(i + 1).padStart(2, '0')}`);
    await addLeads(...names);
    const { user } = await openList();
    await waitFor(() => expect(nameCells()).toEqual(names.slice(0, 5)));
    const pages = () => within(screen.getByRole('navigation', { name: 'Pages' }));
    await user.click(pages().getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(nameCells()).toEqual(names.slice(5, 10)));

    await user.selectOptions(screen.getByLabelText('Per page'), '25');
    await waitFor(() => expect(nameCells()).toEqual(names.slice(0, 25)));
    expect(screen.getByText('Showing 1–25 of 30')).toBeVisible();
    expect(
      pages()
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['1', '2']);
    expect(pages().getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    await user.selectOptions(screen.getByLabelText('Per page'), '100');
    await waitFor(() => expect(nameCells()).toEqual(names));
    expect(
      pages()
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['1']);
  });

  it('searches name, email and phone ignoring case, and typing goes back to page 1', async () => {
    const leads = await addLeads('Asha Rao', 'Bala', 'Chitra', 'Dev', 'Esha', 'Farah', 'Gopal RAO', 'Hari');
    const { user } = await openList();
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(nameCells()).toEqual(['Farah', 'Gopal RAO', 'Hari']));

    const search = screen.getByPlaceholderText(m.searchPlaceholder);
    await user.type(search, 'rao');
    await waitFor(() => expect(nameCells()).toEqual(['Asha Rao', 'Gopal RAO']), settle);
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('button', { name: 'Page 2' })).not.toBeInTheDocument();

    await user.clear(search);
    await user.type(search, 'BALA@EXAMPLE');
    await waitFor(() => expect(nameCells()).toEqual(['Bala']), settle);
    await user.clear(search);
    await user.type(search, leads[3]!.phone.slice(-4));
    await waitFor(() => expect(nameCells()).toEqual(['Dev']), settle);
    await user.clear(search);
    await user.type(search, 'nobody at all');
    expect(await screen.findByText('No leads match this search.', {}, settle)).toBeVisible();
  });

  it('opens with the navbar search filled in', async () => {
    await addLeads('Meera Kapoor', 'Mohan', 'Meera Shah');
    const { user, location } = renderApp('/dashboard');
    await user.type(screen.getByRole('searchbox', { name: 'Search leads' }), 'meera');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('heading', { name: 'Leads List' });
    expect(location.pathname).toBe('/leads');
    await waitFor(() => expect(nameCells()).toEqual(['Meera Kapoor', 'Meera Shah']), settle);
    expect(screen.getByPlaceholderText(m.searchPlaceholder)).toHaveValue('meera');
  });

  it('deletes a lead only after confirmation', async () => {
    const [asha] = await addLeads('Asha', 'Bala');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { user } = await openList();
    await user.click(await screen.findByRole('button', { name: 'Delete Asha' }));
    expect(confirm).toHaveBeenCalledWith(m.confirmDelete);
    expect(nameCells()).toEqual(['Asha', 'Bala']);
    const kept = await server.app.deps.db
      .selectFrom('leads')
      .select('deleted_at')
      .where('id', '=', asha!.id)
      .executeTakeFirstOrThrow();
    expect(kept.deleted_at).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete Asha' }));
    await waitFor(() => expect(nameCells()).toEqual(['Bala']), settle);
    const gone = await server.app.deps.db
      .selectFrom('leads')
      .select('deleted_at')
      .where('id', '=', asha!.id)
      .executeTakeFirstOrThrow();
    expect(gone.deleted_at).not.toBeNull();
  });

  it('fills the page from the next one after a delete', async () => {
    await addLeads('Asha', 'Bala', 'Chitra', 'Dev', 'Esha', 'Farah');
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = await openList();
    await user.click(await screen.findByRole('button', { name: 'Delete Bala' }));
    await waitFor(() => expect(nameCells()).toEqual(['Asha', 'Chitra', 'Dev', 'Esha', 'Farah']));
    expect(screen.getAllByRole('button', { name: /^Page / })).toHaveLength(1);
  });

  it('renames a lead from the prompt, and does nothing on cancel or an empty name', async () => {
    const [asha] = await addLeads('Asha', 'Bala');
    const prompt = vi
      .spyOn(window, 'prompt')
      .mockReturnValueOnce(null)
      .mockReturnValueOnce('   ')
      .mockReturnValueOnce('Asha Verma');
    const put = vi.spyOn(globalThis, 'fetch');
    const { user } = await openList();
    await user.click(await screen.findByRole('button', { name: 'Edit Asha' }));
    expect(prompt).toHaveBeenCalledWith(m.editPrompt, 'Asha');
    await user.click(screen.getByRole('button', { name: 'Edit Asha' }));
    expect(nameCells()).toEqual(['Asha', 'Bala']);
    expect(put.mock.calls.filter(([req]) => (req as Request).method === 'PUT')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Edit Asha' }));
    await waitFor(() => expect(nameCells()).toEqual(['Asha Verma', 'Bala']));
    const row = await server.app.deps.db
      .selectFrom('leads')
      .select(['name', 'email'])
      .where('id', '=', asha!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Asha Verma', email: 'asha@example.com' });
  });

  it('tells the user, top-right, when a delete or an edit fails, and logs it as the spec did', async () => {
    const [asha] = await addLeads('Asha', 'Bala');
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    vi.spyOn(window, 'prompt').mockReturnValue('New Name');
    const { user } = await openList();
    await screen.findByRole('button', { name: 'Delete Asha' });
    // Someone else deleted Asha meanwhile.
    await server.app.deps.db
      .updateTable('leads')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', asha!.id)
      .execute();

    await user.click(screen.getByRole('button', { name: 'Edit Asha' }));
    expect(await within(leadsToaster()).findByText(m.updateFailed)).toBeInTheDocument();
    expect(within(leadRow('Asha')).getByRole('cell', { name: 'Asha' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Delete Asha' }));
    expect(await within(leadsToaster()).findByText(m.deleteFailed)).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(m.updateFailed, expect.anything());
    expect(consoleError).toHaveBeenCalledWith(m.deleteFailed, expect.anything());
  });

  it('tells the user when the list cannot be loaded', async () => {
    pointApiAt('http://127.0.0.1:9');
    renderApp('/leads');
    expect(await within(leadsToaster()).findByText(m.fetchFailed, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(m.fetchFailed, expect.anything());
  });
});
