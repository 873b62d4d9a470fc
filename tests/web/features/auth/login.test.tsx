import { screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../../contract/messages';
import { Role } from '../../../../contract/roles';
import { type Account, createAccount, createFirstAdmin, type TestServer } from '../../../helpers/test-server';
import { pointApiAt, startApi } from '../../support/api-server';
import { startFakeLoginServer } from '../../support/fake-login-server';
import { renderApp } from '../../support/render-app';

let server: TestServer;
let admin: Account;
let employee: Account;
let manager: Account;

beforeAll(async () => {
  server = await startApi({ LOGIN_MAX_PER_EMAIL: '3' });
  admin = await createFirstAdmin(server.app);
  employee = await createAccount(server.app, admin, Role.Employee);
  manager = await createAccount(server.app, admin, Role.Manager);
});

afterAll(async () => {
  await server.close();
});

async function signIn(email: string, password: string, path = '/') {
  const view = renderApp(path);
  await view.user.type(screen.getByLabelText('Email-ID'), email);
  await view.user.type(screen.getByLabelText('Password'), password);
  await view.user.click(screen.getByRole('button', { name: 'Login' }));
  return view;
}

describe('login screen', () => {
  it('asks for the email and the password when they are empty or blank', async () => {
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByLabelText('Email-ID')).toHaveAccessibleDescription(messages.login.emailRequired);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(messages.login.passwordRequired);

    await user.type(screen.getByLabelText('Email-ID'), '   ');
    await user.type(screen.getByLabelText('Password'), '   ');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByText(messages.login.emailRequired)).toBeVisible();
    expect(screen.getByText(messages.login.passwordRequired)).toBeVisible();
  });

  it('clears a field error as soon as the field is edited', async () => {
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await user.type(screen.getByLabelText('Email-ID'), 'a');
    expect(screen.queryByText(messages.login.emailRequired)).not.toBeInTheDocument();
    expect(screen.getByText(messages.login.passwordRequired)).toBeVisible();
  });

  it('sends an Admin to the dashboard 1.5 s after the success message and stores the session', async () => {
    const { location } = await signIn(admin.email, admin.password);
    expect(await screen.findByText(messages.login.success)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    expect(location.pathname).toBe('/');

    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' }, { timeout: 3000 })).toBeVisible();
    expect(location.pathname).toBe('/dashboard');
    expect(localStorage.getItem('token')).toMatch(/^ey/);
    expect(localStorage.getItem('employeeEmail')).toBe(admin.email);
    expect(localStorage.getItem('roleId')).toBe('1');
  });

  it('sends an Employee to the employee board, also from the /login alias', async () => {
    const { location } = await signIn(employee.email, employee.password, '/login');
    expect(await screen.findByRole('heading', { name: 'Employee board' }, { timeout: 3000 })).toBeVisible();
    expect(location.pathname).toBe('/employee');
    expect(localStorage.getItem('roleId')).toBe('3');
  });

  it('sends a Manager to the team dashboard (issue 17)', async () => {
    const { location } = await signIn(manager.email, manager.password);
    expect(await screen.findByRole('heading', { name: 'Team activity' }, { timeout: 3000 })).toBeVisible();
    expect(location.pathname).toBe('/manager');
  });

  it('warns about a role it does not know', async () => {
    const fake = await startFakeLoginServer({
      token: 'x.y.z',
      email: 'who@example.com',
      roleId: 9,
      message: 'Login successful',
    });
    pointApiAt(fake.url);
    try {
      const { location } = await signIn('who@example.com', 'Secret@123');
      expect(await screen.findByText(messages.login.unknownRole)).toBeInTheDocument();
      expect(location.pathname).toBe('/');
      expect(localStorage.getItem('token')).toBeNull();
    } finally {
      pointApiAt(server.url);
      await fake.close();
    }
  });

  it("shows the server's message for a wrong password, without leaving the screen", async () => {
    const { location } = await signIn(employee.email, 'Wrong@1234');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.login.invalidCredentials);
    expect(location.pathname).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('tells a deactivated account why it cannot sign in (issue 17)', async () => {
    const leaver = await createAccount(server.app, admin, Role.Employee);
    await server.app.inject({
      method: 'POST',
      url: `/api/Admin/staff/${leaver.id}/deactivate`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const { location } = await signIn(leaver.email, leaver.password);
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.login.deactivated);
    expect(location.pathname).toBe('/');
  });

  it("shows the server's message when sign-in attempts are rate limited", async () => {
    const victim = await createAccount(server.app, admin, Role.Employee);
    for (let i = 0; i < 3; i++) {
      await fetch(`${server.url}/api/Registration/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: victim.email, password: 'Wrong@1234' }),
      });
    }
    await signIn(victim.email, victim.password);
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.login.tooManyAttempts);
  });

  it('says something went wrong when the server cannot be reached', async () => {
    const fake = await startFakeLoginServer({});
    await fake.close();
    pointApiAt(fake.url);
    try {
      await signIn(admin.email, admin.password);
      expect(await screen.findByRole('alert')).toHaveTextContent(messages.login.failed);
    } finally {
      pointApiAt(server.url);
    }
  });

  it('links to registration and to password reset', async () => {
    const first = renderApp('/');
    await first.user.click(screen.getByRole('link', { name: 'Create an Account' }));
    expect(await screen.findByRole('heading', { name: 'Create an Account' })).toBeVisible();
    first.unmount();

    const second = renderApp('/');
    await second.user.click(screen.getByRole('link', { name: 'Forgot Password?' }));
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeVisible();
    expect(second.location.pathname).toBe('/forgot-password');
  });
});
