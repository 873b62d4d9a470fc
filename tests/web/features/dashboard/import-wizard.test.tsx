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
  await waitFor(() => expect(within(samples).getByText('Baner')).toBeInTheDocument());
  expect(within(preview).getByLabelText('Read "Where" as')).toHaveValue('location');

  await user.click(screen.getByRole('checkbox', { name: 'Auto-assign' }));
  await user.click(screen.getByRole('button', { name: 'Import 2 leads' }));
  const result = await screen.findByRole('region', { name: 'Last import' });
  await waitFor(() => expect(within(result).getByText('portal.csv', { exact: false })).toBeInTheDocument());
  expect(screen.queryByRole('region', { name: 'Preview' })).not.toBeInTheDocument();

  const stored = await server.app.deps.db
    .selectFrom('leads')
    .select(['name', 'location'])
    .where('phone', '=', a)
    .executeTakeFirstOrThrow();
  expect(stored).toEqual({ name: 'Asha Rao', location: 'Baner' });
});
