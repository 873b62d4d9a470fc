import { screen } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../../../contract/messages';
import { passwordMessages } from '../../../../contract/password';
import { Role } from '../../../../contract/roles';
import { resetLinkIn, type SmtpSink, startSmtpSink } from '../../../helpers/mail';
import { type Account, createAccount, createFirstAdmin, type TestServer } from '../../../helpers/test-server';
import { pointApiAt, startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

let sink: SmtpSink;
let server: TestServer;
let admin: Account;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startApi({ SMTP_URL: sink.url, PUBLIC_URL: 'https://leads.example.test' });
  admin = await createFirstAdmin(server.app);
});
afterAll(async () => {
  await server.close();
  await sink.close();
});
beforeEach(() => pointApiAt(server.url));

async function requestLink(email: string) {
  const view = renderApp('/forgot-password');
  await screen.findByRole('heading', { name: 'Reset Password' });
  await view.user.type(screen.getByLabelText('Email'), email);
  await view.user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
  return view;
}

/** The path and fragment of the mailed link, as the browser would open it. */
async function mailedResetPath(email: string): Promise<string> {
  const view = await requestLink(email);
  await screen.findByText(messages.password.forgotAnswer);
  view.unmount();
  const mail = await sink.next();
  const link = resetLinkIn(mail.raw);
  return `${link.pathname}${link.search}${link.hash}`;
}

async function choosePassword(path: string, password: string, confirm = password) {
  const view = renderApp(path);
  await screen.findByRole('heading', { name: 'Choose a New Password' });
  await view.user.type(screen.getByLabelText('New Password'), password);
  if (confirm) await view.user.type(screen.getByLabelText('Confirm Password'), confirm);
  await view.user.click(screen.getByRole('button', { name: 'Set New Password' }));
  return view;
}

const login = (email: string, password: string) =>
  server.app.inject({ method: 'POST', url: '/api/Registration/login', payload: { email, password } });

describe('forgot password', () => {
  it('shows the server answer for a known and an unknown email alike', async () => {
    const employee = await createAccount(server.app, admin, Role.Employee);
    const known = await requestLink(employee.email);
    expect(await screen.findByRole('status')).toHaveTextContent(messages.password.forgotAnswer);
    known.unmount();
    await sink.next();

    await requestLink('nobody@example.com');
    expect(await screen.findByRole('status')).toHaveTextContent(messages.password.forgotAnswer);
  });

  it('asks for a well-formed email before calling the server', async () => {
    const { user } = renderApp('/forgot-password');
    await user.click(await screen.findByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(messages.registration.emailRequired);
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(messages.registration.emailInvalid);
  });

  it("says 'Something went Wrong' when the server cannot be reached", async () => {
    pointApiAt('http://127.0.0.1:9');
    await requestLink('someone@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.password.forgotFailed);
  });

  it('passes on the rate limit sentence', async () => {
    const email = 'limited@example.com';
    for (let i = 0; i < 5; i++) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/registration/forgotpassword',
        payload: { email },
      });
      expect(res.statusCode).toBe(200);
    }
    await requestLink(email);
    expect(await screen.findByRole('alert')).toHaveTextContent(passwordMessages.tooManyRequests);
  });
});

describe('reset password from the mailed link', () => {
  it('sets the new password once, after which the link is spent', async () => {
    const employee = await createAccount(server.app, admin, Role.Employee);
    const path = await mailedResetPath(employee.email);
    expect(path).toMatch(/^\/reset-password#token=[\w-]{43}$/);

    const view = await choosePassword(path, 'Fresh@Pass1');
    expect(await screen.findByRole('status')).toHaveTextContent(passwordMessages.resetDone);
    await view.user.click(screen.getByRole('link', { name: 'Go to Login' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeVisible();
    view.unmount();
    expect((await login(employee.email, 'Fresh@Pass1')).statusCode).toBe(200);
    expect((await login(employee.email, employee.password)).statusCode).toBe(401);

    await choosePassword(path, 'Other@Pass2');
    expect(await screen.findByRole('alert')).toHaveTextContent(passwordMessages.tokenUsed);
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('applies the registration password rules', async () => {
    const employee = await createAccount(server.app, admin, Role.Employee);
    const path = await mailedResetPath(employee.email);
    const { user } = await choosePassword(path, 'weakpass', '');
    expect(screen.getByLabelText('New Password')).toHaveAccessibleDescription(
      messages.registration.passwordRule,
    );
    expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription(
      messages.registration.confirmRequired,
    );

    await user.clear(screen.getByLabelText('New Password'));
    await user.type(screen.getByLabelText('New Password'), 'Fresh@Pass1');
    await user.type(screen.getByLabelText('Confirm Password'), 'Fresh@Pass2');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription(
      messages.registration.confirmMismatch,
    );
    // Nothing was sent: the link still works.
    expect((await login(employee.email, employee.password)).statusCode).toBe(200);
  });

  it('says when the link has expired', async () => {
    const employee = await createAccount(server.app, admin, Role.Employee);
    const path = await mailedResetPath(employee.email);
    await server.app.deps.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', employee.id)
      .execute();
    await choosePassword(path, 'Fresh@Pass1');
    expect(await screen.findByRole('alert')).toHaveTextContent(passwordMessages.tokenExpired);
  });

  it('still takes a link mailed before, with ?token=, and moves the token out of the query', async () => {
    const employee = await createAccount(server.app, admin, Role.Employee);
    const token = new URLSearchParams((await mailedResetPath(employee.email)).split('#')[1]).get('token')!;
    const view = renderApp(`/reset-password?token=${token}`);
    await screen.findByRole('heading', { name: 'Choose a New Password' });
    expect(view.location.search).toBe('');
    await view.user.type(screen.getByLabelText('New Password'), 'Fresh@Pass1');
    await view.user.type(screen.getByLabelText('Confirm Password'), 'Fresh@Pass1');
    await view.user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByRole('status')).toHaveTextContent(passwordMessages.resetDone);
    expect((await login(employee.email, 'Fresh@Pass1')).statusCode).toBe(200);
  });

  it('says a link without a token is not valid', async () => {
    renderApp('/reset-password');
    expect(await screen.findByRole('alert')).toHaveTextContent(passwordMessages.tokenUnknown);
    expect(screen.getByRole('button', { name: 'Set New Password' })).toBeDisabled();
  });
});
