import crypto from 'node:crypto';
import * as XLSX from '@e965/xlsx';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminMessages } from '../../../../contract/admin';
import type { Lead } from '../../../../contract/leads';
import { messages } from '../../../../contract/messages';
import { Role } from '../../../../contract/roles';
import { dashboardMessages } from '../../../../src/features/dashboard/components/charts-panel';
import { UNDO_CONFIRM } from '../../../../src/features/dashboard/components/import-history';
import { saveSession } from '../../../../src/lib/session';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  type TestServer,
} from '../../../helpers/test-server';
import { startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

let server: TestServer;
let admin: Account;
let asha: Account;
let ravi: Account;

beforeAll(async () => {
  server = await startApi();
  // The upload goes through XMLHttpRequest, which jsdom holds to the same-origin rule, so the page
  // is put on the API's origin, as in production. reconfigure() moves the document; jsdom's XHR
  // reads the origin the window was created with, which has to follow by hand.
  const { jsdom } = globalThis as unknown as {
    jsdom: { reconfigure(o: { url: string }): void; window: object };
  };
  jsdom.reconfigure({ url: `${server.url}/dashboard` });
  (jsdom.window as unknown as { _origin: string })._origin = new URL(server.url).origin;
  admin = await createFirstAdmin(server.app);
  asha = await createAccount(server.app, admin, Role.Employee, { email: 'asha@example.com' });
  ravi = await createAccount(server.app, admin, Role.Employee, { email: 'ravi@example.com' });
});
afterAll(() => server.close());

beforeEach(async () => {
  // Every test starts from an empty lead table.
  // Assignments are recorded per lead (issue 17): their rows go first.
  await server.app.deps.db.deleteFrom('lead_assignments').execute();
  await server.app.deps.db.deleteFrom('leads').execute();
  server.app.deps.stats.invalidate();
  saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
});

const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;

async function addLead(body: Record<string, unknown> = {}): Promise<Lead> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(admin),
    payload: {
      name: `Lead ${crypto.randomBytes(2).toString('hex')}`,
      phoneNo: phone(),
      siteVisit: 'Expo',
      ...body,
    },
  });
  if (res.statusCode !== 201) throw new Error(`add lead failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

function sheet(rows: unknown[][]): File {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Leads');
  const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer;
  return new File([bytes], 'leads.xlsx', {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
}

async function openDashboard(userOptions: Parameters<typeof renderApp>[1] = {}) {
  const view = renderApp('/dashboard', userOptions);
  await screen.findByRole('heading', { name: 'Admin Dashboard' });
  await waitFor(() => expect(screen.queryByText('Loading leads...')).not.toBeInTheDocument());
  return view;
}

const assignButton = () => screen.getByRole('button', { name: /^Assign Leads/ });
const employeeSelect = () => screen.getByRole('combobox', { name: 'Employee' });
const table = () => screen.getByRole('table');

describe('the dashboard', () => {
  it('shows the header, the chart totals and the unassigned leads', async () => {
    await addLead({ name: 'Meena Iyer', siteVisit: 'Riverside' });
    await addLead({ name: 'Kiran Rao', siteVisit: 'Riverside', assignedTo: asha.email });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(screen.getByText('Loading leads...')).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('link', {
        name: 'Register Employee',
      }),
    ).toHaveAttribute('href', '/registration');

    expect(await screen.findByText('Leads per Employee (total 1)')).toBeInTheDocument();
    expect(screen.getByText('Leads per Campaign (total 2)')).toBeInTheDocument();
    expect(screen.getByText('Assigned: 1, Unassigned: 1')).toBeInTheDocument();
    const row = (await within(table()).findByText('Meena Iyer')).closest('tr')!;
    expect(within(row).getByText('Unassigned')).toBeInTheDocument();
    expect(within(table()).queryByText('Kiran Rao')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download template' })).toHaveAttribute(
      'href',
      '/templates/leads-template.xlsx',
    );
  });

  it('says so instead of drawing empty charts when there are no leads', async () => {
    await openDashboard();
    expect(await screen.findByText('Leads per Campaign (total 0)')).toBeInTheDocument();
    // The pie and the campaign bars: nothing to draw. The employees exist, with no leads.
    expect(screen.getAllByText(dashboardMessages.noLeads)).toHaveLength(2);
    expect(screen.getByText('ravi@example.com: 0', { exact: false })).toBeInTheDocument();
    expect(screen.queryByText(dashboardMessages.noEmployees)).not.toBeInTheDocument();
  });

  it('keeps Assign Leads disabled until an employee and a lead are chosen, then assigns', async () => {
    await addLead({ name: 'First Buyer' });
    await addLead({ name: 'Second Buyer' });
    const { user } = await openDashboard();
    expect(assignButton()).toBeDisabled();
    expect(assignButton()).toHaveAccessibleDescription(messages.assign.needSelection);
    expect(
      within(employeeSelect())
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select Employee', asha.email, ravi.email]);

    await user.click(screen.getByRole('checkbox', { name: 'Select First Buyer' }));
    expect(assignButton()).toBeDisabled();
    await user.selectOptions(employeeSelect(), ravi.email);
    expect(assignButton()).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select First Buyer' }));
    expect(assignButton()).toBeDisabled();

    await user.click(screen.getByRole('checkbox', { name: 'Select First Buyer' }));
    await user.click(assignButton());
    expect(await screen.findByText(messages.assign.success)).toBeInTheDocument();
    await waitFor(() => expect(within(table()).queryByText('First Buyer')).not.toBeInTheDocument());
    expect(within(table()).getByText('Second Buyer')).toBeInTheDocument();
    expect(assignButton()).toBeDisabled();
    expect(await screen.findByText('Leads per Employee (total 1)')).toBeInTheDocument();
  });

  it('greys assigned leads under Show All, and the header box picks every unassigned lead shown', async () => {
    await addLead({ name: 'Open One' });
    await addLead({ name: 'Open Two' });
    await addLead({ name: 'Taken', assignedTo: asha.email });
    const { user } = await openDashboard();
    await user.click(screen.getByRole('checkbox', { name: 'Show All Leads' }));
    const taken = (await within(table()).findByText('Taken')).closest('tr')!;
    expect(taken).toHaveClass('lead-row-assigned');
    expect(within(taken).getByRole('checkbox')).toBeDisabled();
    expect(within(taken).getByText(asha.email)).toBeInTheDocument();

    const all = screen.getByRole('checkbox', { name: 'Select all unassigned leads' });
    await user.click(all);
    expect(screen.getByRole('checkbox', { name: 'Select Open One' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Open Two' })).toBeChecked();
    expect(within(taken).getByRole('checkbox')).not.toBeChecked();
    expect(assignButton()).toHaveTextContent('Assign Leads (2)');
    await user.click(all);
    expect(screen.getByRole('checkbox', { name: 'Select Open One' })).not.toBeChecked();
  });

  // Issue 19 changed this test: the list was reloaded and the selection cleared; now nothing is
  // assigned, the selection stays and the lead another admin took is marked.
  it('says which selected lead was taken, keeps the selection and marks it', async () => {
    const lead = await addLead({ name: 'Contested' });
    await addLead({ name: 'Still Free' });
    const { user } = await openDashboard();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Contested' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Still Free' }));
    await user.selectOptions(employeeSelect(), asha.email);
    // Another admin takes the lead first.
    await server.app.inject({
      method: 'POST',
      url: '/api/Admin/assign',
      headers: bearer(admin),
      payload: { employeeId: ravi.id, leadIds: [lead.leadID] },
    });
    await user.click(assignButton());
    const title = adminMessages.leadsTaken([{ name: 'Contested', assignedTo: ravi.email }], 2);
    expect(
      await screen.findByText(`${messages.assign.failedPrefix}${title}`, {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    const row = within(table()).getByText('Contested').closest('tr')!;
    expect(within(row).getByText('Already assigned by someone else')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Contested' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Still Free' })).toBeChecked();
    // Unselect the taken one and assign the rest.
    await user.click(screen.getByRole('checkbox', { name: 'Select Contested' }));
    await user.click(assignButton());
    expect(await screen.findByText(messages.assign.success)).toBeInTheDocument();
    await waitFor(() => expect(within(table()).queryByText('Still Free')).not.toBeInTheDocument());
  });

  it('logs out: the token ended on the server, local storage cleared, back to the login screen', async () => {
    const { user, location } = await openDashboard();
    await user.click(
      within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('link', { name: 'Logout' }),
    );
    await waitFor(() => expect(location.pathname).toBe('/'));
    expect(localStorage.getItem('token')).toBeNull();
    const withOldToken = await server.app.inject({ url: '/api/Admin/stats', headers: bearer(admin) });
    expect(withOldToken.statusCode).toBe(401);
    // The tests after this one sign in again.
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/Registration/login',
      payload: { email: admin.email, password: admin.password },
    });
    admin.token = login.json().token;
  });
});

// Issue 19: the dashboard on a phone, long names and lopsided charts.
describe('long names and small counts', () => {
  const longCampaign = 'Godrej Riverside Premium Towers Launch Weekend Mega Expo 2026';
  const longName = `Venkatanarasimharajuvaripeta Srinivasa Raghavendra ${'Subrahmanyam '.repeat(8)}Iyer`;

  it('shows each lead as one row: its name, phone, campaign and holder, the box reached by keyboard', async () => {
    const lead = await addLead({ name: longName, siteVisit: longCampaign });
    await addLead({ name: 'Held Lead', siteVisit: 'Walk-in', assignedTo: asha.email });
    const { user } = await openDashboard();
    await user.click(screen.getByRole('checkbox', { name: 'Show All Leads' }));
    const row = (await within(table()).findByRole('link', { name: longName })).closest('tr')!;
    expect(within(row).getByRole('cell', { name: lead.phoneNo })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: longCampaign })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: 'Unassigned' })).toBeInTheDocument();
    const held = within(table()).getByRole('row', { name: /Held Lead/ });
    expect(within(held).getByRole('cell', { name: asha.email })).toBeInTheDocument();

    const box = within(row).getByRole('checkbox', { name: `Select ${longName}` });
    box.focus();
    await user.keyboard(' ');
    expect(box).toBeChecked();
    expect(assignButton()).toHaveTextContent('Assign Leads (1)');
  });

  describe('with the charts drawn', () => {
    // jsdom lays nothing out: give the chart boxes a phone's width so nivo draws its SVG.
    const clientWidth = Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth')!;
    beforeAll(() => {
      Object.defineProperty(Element.prototype, 'clientWidth', {
        configurable: true,
        get(this: Element) {
          return this.classList.contains('chart-canvas') ? 340 : clientWidth.get!.call(this);
        },
      });
    });
    afterAll(() => Object.defineProperty(Element.prototype, 'clientWidth', clientWidth));

    it('keeps a long campaign name whole in a tooltip and draws a 1-lead bar with its number', async () => {
      await addLead({ siteVisit: longCampaign });
      await addLead({ siteVisit: 'Walk-in' });
      for (let i = 0; i < 120; i++) await addLead({ siteVisit: 'Green Acres Expo' });
      const { user } = await openDashboard();
      const chart = (await screen.findByText('Leads per Campaign (total 122)')).closest('figure')!;
      const bars = await within(chart).findByRole('group', { name: 'Leads per campaign' });

      // Under its bar the name is wrapped and shortened; the whole of it is the label's tooltip.
      expect(within(bars).getByText(longCampaign, { selector: 'title' })).toBeInTheDocument();
      expect(within(bars).queryByText(longCampaign, { selector: 'tspan' })).not.toBeInTheDocument();
      expect(within(bars).getByText('Godrej', { selector: 'tspan' })).toBeInTheDocument();
      // The count above each bar (the axis has its own numbers), 1 beside 120 included.
      const counts = within(bars)
        .getAllByText(/^[\d,]+$/, { selector: 'text[font-weight="bold"]' })
        .map((t) => t.textContent);
      expect(counts).toEqual(['120', '1', '1']);

      // Each bar is reached from the keyboard and names itself; focus shows the full name.
      const bar = within(bars).getByLabelText(`${longCampaign}: 1`);
      expect(bar).toHaveAttribute('tabindex', '0');
      await user.click(document.body);
      bar.focus();
      const tip = await within(chart).findByText(longCampaign, { selector: '.chart-tooltip-label' });
      expect(tip.parentElement).toHaveTextContent(`${longCampaign}: 1`);
    });

    it('counts with Indian grouping in the pie legend', async () => {
      await addLead({ assignedTo: asha.email });
      await addLead();
      await openDashboard();
      const pie = (await screen.findByText('Assigned vs Unassigned')).closest('figure')!;
      expect(await within(pie).findByText('Assigned 1')).toBeInTheDocument();
      expect(within(pie).getByText('Unassigned 1')).toBeInTheDocument();
    });
  });
});

describe('uploading a spreadsheet', () => {
  it('checks that a file is chosen and that it is an Excel file', async () => {
    // The picker offers .xls/.xlsx/.csv; a user can still switch it to "All files".
    const { user } = await openDashboard({ applyAccept: false });
    await user.click(screen.getByRole('button', { name: 'Upload Leads' }));
    expect(await screen.findByText(messages.upload.noFile)).toBeInTheDocument();
    await user.upload(
      screen.getByLabelText('Excel file'),
      new File(['a,b'], 'leads.ods', { type: 'application/vnd.oasis.opendocument.spreadsheet' }),
    );
    await user.click(screen.getByRole('button', { name: 'Upload Leads' }));
    expect(await screen.findByText(messages.upload.wrongType)).toBeInTheDocument();
  });

  it('imports, reports the counts, reloads the table and offers the rejected rows', async () => {
    const createObjectURL = vi.fn(() => 'blob:invalid-leads');
    const clicks: string[] = [];
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this.download);
    });
    const { user } = await openDashboard();
    expect(screen.queryByRole('button', { name: 'Download Invalid Leads' })).not.toBeInTheDocument();

    await user.upload(
      screen.getByLabelText('Excel file'),
      sheet([
        ['Name', 'Phone'],
        ['Uploaded Buyer', phone()],
        ['No Phone Buyer', ''],
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Upload Leads' }));
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    expect(
      await screen.findByText('Total Rows: 2, Inserted: 1, Skipped: 1, Auto-assign: yes'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(await screen.findByText('Leads per Employee (total 1)')).toBeInTheDocument();
    // Auto-assigned, so it is under Show All, with the least-loaded employee (the lowest id of a tie).
    await user.click(screen.getByRole('checkbox', { name: 'Show All Leads' }));
    const row = (await within(table()).findByText('Uploaded Buyer')).closest('tr')!;
    expect(within(row).getByText(asha.email)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download Invalid Leads' }));
    expect(createObjectURL).toHaveBeenCalledOnce();
    expect(clicks).toEqual(['InvalidLeads.xlsx']);
    click.mockRestore();
  });

  it('shows no download button after an upload without rejected rows, and leaves leads unassigned when asked', async () => {
    const { user } = await openDashboard();
    await user.click(screen.getByRole('checkbox', { name: 'Auto-assign after upload' }));
    await user.upload(
      screen.getByLabelText('Excel file'),
      sheet([
        ['Name', 'Phone'],
        ['Clean Buyer', phone()],
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Upload Leads' }));
    expect(
      await screen.findByText('Total Rows: 1, Inserted: 1, Skipped: 0, Auto-assign: no'),
    ).toBeInTheDocument();
    const row = (await within(table()).findByText('Clean Buyer')).closest('tr')!;
    expect(within(row).getByText('Unassigned')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download Invalid Leads' })).not.toBeInTheDocument();
  });

  it("shows 'Upload Failed' with the server's message", async () => {
    const { user } = await openDashboard();
    await user.upload(
      screen.getByLabelText('Excel file'),
      sheet([
        ['Who', 'Where'],
        ['A', 'Pune'],
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Upload Leads' }));
    expect(
      await screen.findByText(/^Upload Failed: The spreadsheet is missing the Name and Phone columns/),
    ).toBeInTheDocument();
  });

  it('lists the imports and takes one back with Undo', async () => {
    const { user } = await openDashboard();
    await user.click(screen.getByRole('checkbox', { name: 'Auto-assign after upload' }));
    await user.upload(
      screen.getByLabelText('Excel file'),
      sheet([
        ['Name', 'Phone'],
        ['Undo Buyer', phone()],
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Upload Leads' }));
    // An upload goes through a parse worker: on a busy machine it takes longer than findBy's 1 s.
    expect(await within(table()).findByText('Undo Buyer', {}, { timeout: 15_000 })).toBeInTheDocument();
    await user.click(screen.getByText('Import history'));
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    await user.click((await screen.findAllByRole('button', { name: 'Undo import of leads.xlsx' }))[0]!);
    expect(confirm).toHaveBeenCalledWith(UNDO_CONFIRM);
    expect(
      await screen.findByText('Removed 1 lead of that import.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(table()).queryByText('Undo Buyer')).not.toBeInTheDocument());
    confirm.mockRestore();
  });

  it('keeps a result panel after the upload, and after leaving the dashboard and coming back', async () => {
    const { user, unmount } = await openDashboard();
    const held = phone();
    await addLead({ name: 'Held Before', phoneNo: held });
    await user.upload(
      screen.getByLabelText('Excel file'),
      sheet([
        ['Name', 'Phone', 'Visit DateTime'],
        ['Panel Buyer', phone(), 'Next week'],
        ['Panel Buyer Two', phone(), ''],
        ['No Phone Buyer', '', ''],
        ['Held Buyer', held, ''],
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Upload Leads' }));
    // The spec's toast, and the panel of this import (not the one before it).
    expect(
      await screen.findByText(
        'Total Rows: 4, Inserted: 2, Skipped: 2, Auto-assign: yes',
        {},
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    const panel = await screen.findByRole('region', { name: 'Last import' });
    const fact = (label: string) => within(panel).getByText(label).nextSibling?.textContent;
    expect(fact('Rows read')).toBe('4');
    expect(fact('Inserted')).toBe('2');
    expect(fact('Already in the system')).toBe('1');
    expect(fact('No usable phone')).toBe('1');
    expect(fact('Kept with a warning')).toBe('1');
    expect(within(panel).getByText(/^Auto-assigned:/)).toHaveTextContent(
      `Auto-assigned: ${asha.email} 1 · ${ravi.email} 1`,
    );

    // Away and back: the panel and its download are read from the import history.
    unmount();
    const createObjectURL = vi.fn(() => 'blob:invalid-leads');
    const clicks: string[] = [];
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this.download);
    });
    const again = await openDashboard();
    const kept = await screen.findByRole('region', { name: 'Last import' }, { timeout: 10_000 });
    expect(within(kept).getByText('leads.xlsx')).toBeInTheDocument();
    expect(within(kept).getByText(new RegExp(`by ${admin.email}`))).toBeInTheDocument();
    await again.user.click(within(kept).getByRole('button', { name: 'Download Invalid Leads' }));
    await waitFor(() => expect(clicks).toEqual(['InvalidLeads.xlsx']));
    click.mockRestore();
  });
});
