import crypto from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Role } from '../../../../contract/roles';
import { saveSession } from '../../../../src/lib/session';
import { type Account, createFirstAdmin, type TestServer } from '../../../helpers/test-server';
import { startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

// Issue 19: the import wizard on the dashboard, against a real server.

let server: TestServer;
let admin: Account;

beforeAll(async () => {
  server = await startApi();
  // As in dashboard.test.tsx: the page sits on the API's origin.
  const { jsdom } = globalThis as unknown as {
    jsdom: { reconfigure(o: { url: string }): void; window: object };
  };
  jsdom.reconfigure({ url: `${server.url}/dashboard` });
  (jsdom.window as unknown as { _origin: string })._origin = new URL(server.url).origin;
  admin = await createFirstAdmin(server.app);
  saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
});
afterAll(() => server.close());

const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;

it('previews a file, lets the admin map a column, then imports it', async () => {
  const [a, b] = [phone(), phone()];
  const csv = `Full Name,Mobile,Where\r\nAsha Rao,${a},Baner\r\nRavi Kumar,${b},Wakad\r\nNo Phone,,Aundh\r\n`;
  const { user } = renderApp('/dashboard');
  await screen.findByRole('heading', { name: 'Admin Dashboard' });

  await user.click(screen.getByText('Import with preview'));
  await user.upload(
    screen.getByLabelText('File to preview'),
    new File([csv], 'portal.csv', { type: 'text/csv' }),
  );
  await user.click(screen.getByRole('button', { name: 'Preview' }));

  const preview = await screen.findByRole('region', { name: 'Preview' }, { timeout: 10_000 });
  expect(within(preview).getByLabelText('Read "Mobile" as')).toHaveValue('phone');
  expect(within(preview).getByLabelText('Read "Where" as')).toHaveValue('ignored');
  const facts = within(preview).getByText('Would be inserted').closest('div')!;
  expect(facts).toHaveTextContent('2');
  const samples = within(preview).getByRole('table', { name: 'First rows as they will be stored' });
  expect(within(samples).getByText('Asha Rao')).toBeInTheDocument();
  expect(within(samples).queryByText('Baner')).not.toBeInTheDocument();

  await user.selectOptions(within(preview).getByLabelText('Read "Where" as'), 'location');
  // Each choice is read again on the server: on a loaded CI machine, over a second.
  const slow = { timeout: 10_000 };
  await waitFor(() => expect(within(samples).getByText('Baner')).toBeInTheDocument(), slow);
  expect(within(preview).getByLabelText('Read "Where" as')).toHaveValue('location');

  await user.click(screen.getByRole('checkbox', { name: 'Auto-assign' }));
  await user.click(screen.getByRole('button', { name: 'Import 2 leads' }));
  const result = await screen.findByRole('region', { name: 'Last import' }, slow);
  await waitFor(
    () => expect(within(result).getByText('portal.csv', { exact: false })).toBeInTheDocument(),
    slow,
  );
  expect(screen.queryByRole('region', { name: 'Preview' })).not.toBeInTheDocument();

  const stored = await server.app.deps.db
    .selectFrom('leads')
    .select(['name', 'location'])
    .where('phone', '=', a)
    .executeTakeFirstOrThrow();
  expect(stored).toEqual({ name: 'Asha Rao', location: 'Baner' });
});

it('fills the empty fields of leads already in the system when the admin chooses to', async () => {
  const [held, fresh] = [phone(), phone()];
  await server.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    payload: { name: 'Meera Shah', phoneNo: held },
    headers: { authorization: `Bearer ${admin.token}` },
  });
  // setup.ts signs out after each test.
  saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
  const csv = `Name,Phone,Email\r\nMeera S,${held},meera@example.com\r\nKiran,${fresh},kiran@example.com\r\n`;
  const { user } = renderApp('/dashboard');
  await screen.findByRole('heading', { name: 'Admin Dashboard' });
  await user.click(screen.getByText('Import with preview'));
  await user.upload(
    screen.getByLabelText('File to preview'),
    new File([csv], 'refresh.csv', { type: 'text/csv' }),
  );
  await user.click(screen.getByRole('button', { name: 'Preview' }));
  const preview = await screen.findByRole('region', { name: 'Preview' }, { timeout: 10_000 });
  expect(within(preview).getByText('Already in the system').closest('div')).toHaveTextContent('1');

  await user.selectOptions(
    within(preview).getByLabelText('Phones already in the system'),
    "Fill the existing lead's empty fields",
  );
  // The server reads the file again for the new choice: on a loaded CI machine, over a second.
  const filled = await within(preview).findByText(
    'Would fill empty fields of existing leads',
    {},
    { timeout: 10_000 },
  );
  expect(filled.closest('div')).toHaveTextContent('1');

  await user.click(screen.getByRole('button', { name: 'Import 1 lead and update 1' }));
  const result = await screen.findByRole('region', { name: 'Last import' }, { timeout: 10_000 });
  await waitFor(() => expect(within(result).getByText('refresh.csv', { exact: false })).toBeInTheDocument(), {
    timeout: 10_000,
  });
  expect(
    within(result).getByText('Existing leads with empty fields filled').closest('div'),
  ).toHaveTextContent('1');
  const stored = await server.app.deps.db
    .selectFrom('leads')
    .select(['name', 'email'])
    .where('phone', '=', held)
    .executeTakeFirstOrThrow();
  // The name had a value and is kept; the empty email is filled.
  expect(stored).toEqual({ name: 'Meera Shah', email: 'meera@example.com' });
});

it('shows a big file at once and its exact counts when they are ready', async () => {
  saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
  const lines = Array.from({ length: 2500 }, (_, i) => `Buyer ${i},${phone()}`);
  const csv = `Name,Phone\r\n${lines.join('\r\n')}\r\n`;
  const { user } = renderApp('/dashboard');
  await screen.findByRole('heading', { name: 'Admin Dashboard' });
  await user.click(screen.getByText('Import with preview'));
  await user.upload(
    screen.getByLabelText('File to preview'),
    new File([csv], 'big.csv', { type: 'text/csv' }),
  );
  await user.click(screen.getByRole('button', { name: 'Preview' }));
  const preview = await screen.findByRole('region', { name: 'Preview' }, { timeout: 10_000 });
  const samples = within(preview).getByRole('table', { name: 'First rows as they will be stored' });
  expect(within(samples).getByText('Buyer 0')).toBeInTheDocument();
  const inserted = await within(preview).findByText('Would be inserted', {}, { timeout: 10_000 });
  expect(inserted.closest('div')).toHaveTextContent('2,500');
  expect(within(preview).queryByRole('status')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Import 2,500 leads' })).toBeEnabled();

  // The commit streams its progress (the server sends lines once the first rows are in); the
  // answer at the end of the lines is the result shown.
  await user.click(screen.getByRole('button', { name: 'Import 2,500 leads' }));
  const result = await screen.findByRole('region', { name: 'Last import' }, { timeout: 10_000 });
  await waitFor(() => expect(within(result).getByText('big.csv', { exact: false })).toBeInTheDocument(), {
    timeout: 10_000,
  });
  expect(within(result).getByText('Inserted').closest('div')).toHaveTextContent('2,500');
});
