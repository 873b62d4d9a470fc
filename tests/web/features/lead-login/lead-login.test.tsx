import { screen } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../../../contract/messages';
import { Role } from '../../../../contract/roles';
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

async function signIn(email: string, password: string) {
  const view = renderApp('/lead/42');
  await screen.findByRole('heading', { name: 'Sign In' });
  if (email) await view.user.type(screen.getByLabelText('Email'), email);
  if (password) await view.user.type(screen.getByLabelText('Password'), password);
  await view.user.click(screen.getByRole('button', { name: 'Login' }));
  return view;
}

describe('lead sign-in form (/lead/:id)', () => {
  it('type-checks the email and asks for the password', async () => {
    await signIn('', '');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(messages.registration.emailRequired);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(messages.login.passwordRequired);
  });

  it('refuses a malformed email before calling the server', async () => {
    await signIn('asha-at-example', 'Secret@123');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(messages.registration.emailInvalid);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("shows 'Invalid Credentials. Please try again.' for a wrong password", async () => {
    const { location } = await signIn(admin.email, 'Wrong@1234');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.login.leadFormInvalid);
    expect(location.pathname).toBe('/lead/42');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('signs an Admin in through the real login call and opens the dashboard', async () => {
    const { location } = await signIn(admin.email, admin.password);
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    expect(location.pathname).toBe('/dashboard');
    expect(localStorage.getItem('token')).toMatch(/^ey/);
    expect(localStorage.getItem('employeeEmail')).toBe(admin.email);
    expect(localStorage.getItem('roleId')).toBe(String(Role.Admin));
  });

  it('sends an employee on to their board', async () => {
    const view = await signIn(employee.email, employee.password);
    await screen.findByRole('navigation', { name: 'Main' });
    expect(view.location.pathname).toBe('/employee');
    expect(localStorage.getItem('roleId')).toBe(String(Role.Employee));
  });

  it('tells a Manager there is no screen yet', async () => {
    await signIn(manager.email, manager.password);
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.login.managerUnavailable);
  });

  it('links to Forgot Password', async () => {
    const view = renderApp('/lead/7');
    await view.user.click(await screen.findByRole('link', { name: 'Forgot Password' }));
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeVisible();
    expect(view.location.pathname).toBe('/forgot-password');
  });
});
