import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RegistrationRequest } from '../../../../contract/auth';
import { messages } from '../../../../contract/messages';
import { Role, roleNames } from '../../../../contract/roles';
import { saveSession } from '../../../../src/lib/session';
import {
  type Account,
  buildRegistration,
  createAccount,
  createFirstAdmin,
  type TestServer,
} from '../../../helpers/test-server';
import { startApi } from '../../support/api-server';
import { renderApp } from '../../support/render-app';

const m = messages.registration;

const field = {
  email: () => screen.getByLabelText('Email'),
  password: () => screen.getByLabelText('Password'),
  confirm: () => screen.getByLabelText('Confirm Password'),
  contact: () => screen.getByLabelText('Contact Number'),
  aadhaar: () => screen.getByLabelText('Aadhaar Number'),
  role: () => screen.getByLabelText('Role'),
};

async function fillForm(user: UserEvent, values: RegistrationRequest) {
  await user.type(field.email(), values.email);
  await user.type(field.password(), values.password);
  await user.type(field.confirm(), values.ConfirmPassword);
  await user.type(field.contact(), values.contact);
  await user.type(field.aadhaar(), values.adharNo);
  await user.selectOptions(field.role(), roleNames[values.roleId]);
}

/** The registration screen loads on demand; wait for it the way a user waits for the form. */
async function openRegistration() {
  const view = renderApp('/registration');
  await screen.findByRole('heading', { name: 'Create an Account' });
  return view;
}

/**
 * Keystroke by keystroke without user-event: user-event waits on a real setTimeout after every
 * action, which never fires while the debounce tests hold the clock.
 */
function typeKeys(input: HTMLElement, text: string) {
  for (let i = 1; i <= text.length; i++) fireEvent.change(input, { target: { value: text.slice(0, i) } });
}

function fillFormKeys(values: RegistrationRequest) {
  typeKeys(field.email(), values.email);
  typeKeys(field.password(), values.password);
  typeKeys(field.confirm(), values.ConfirmPassword);
  typeKeys(field.contact(), values.contact);
  typeKeys(field.aadhaar(), values.adharNo);
  fireEvent.change(field.role(), { target: { value: String(values.roleId) } });
}

const submit = (user: UserEvent) => user.click(screen.getByRole('button', { name: 'Register' }));

/** Duplicate-check requests the page has sent to `endpoint` so far. */
function checkRequests(fetchSpy: { mock: { calls: unknown[][] } }, endpoint: string) {
  return fetchSpy.mock.calls.filter(([input]) => String((input as Request).url ?? input).includes(endpoint))
    .length;
}

describe('registration screen', () => {
  let server: TestServer;
  let admin: Account;
  let employee: Account;
  let existing: RegistrationRequest;

  beforeAll(async () => {
    server = await startApi();
    admin = await createFirstAdmin(server.app);
    existing = buildRegistration();
    employee = await createAccount(server.app, admin, Role.Employee, existing);
  });

  afterAll(async () => {
    await server.close();
  });

  describe('as an Admin', () => {
    beforeEach(() => {
      saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
    });

    afterEach(() => {
      vi.useRealTimers();
      vi.restoreAllMocks();
    });

    it('is titled Create an Account and offers the three roles after Select Role', async () => {
      await openRegistration();
      expect(screen.getByRole('heading', { name: 'Create an Account' })).toBeVisible();
      const options = Array.from((field.role() as HTMLSelectElement).options).map((o) => [
        o.textContent,
        o.value,
      ]);
      expect(options).toEqual([
        ['Select Role', ''],
        ['Admin', '1'],
        ['Manager', '2'],
        ['Employee', '3'],
      ]);
    });

    it('names every missing field on submit', async () => {
      const { user } = await openRegistration();
      await submit(user);
      expect(field.email()).toHaveAccessibleDescription(m.emailRequired);
      expect(field.password()).toHaveAccessibleDescription(m.passwordRule);
      expect(field.confirm()).toHaveAccessibleDescription(m.confirmRequired);
      expect(field.contact()).toHaveAccessibleDescription(m.contactRule);
      expect(field.aadhaar()).toHaveAccessibleDescription(m.aadhaarRule);
      expect(field.role()).toHaveAccessibleDescription(m.roleRequired);
      expect(field.email()).toHaveFocus();
    });

    it('explains each malformed value', async () => {
      const { user } = await openRegistration();
      await user.type(field.email(), 'not-an-email');
      await user.type(field.password(), 'weakpass');
      await user.type(field.contact(), '98765');
      await user.type(field.aadhaar(), '012345678901');
      await submit(user);
      expect(field.email()).toHaveAccessibleDescription(m.emailInvalid);
      expect(field.password()).toHaveAccessibleDescription(m.passwordRule);
      expect(field.contact()).toHaveAccessibleDescription(m.contactRule);
      expect(field.aadhaar()).toHaveAccessibleDescription(m.aadhaarFirstDigit);

      await user.clear(field.aadhaar());
      await user.type(field.aadhaar(), '234567890123');
      await submit(user);
      expect(field.aadhaar()).toHaveAccessibleDescription(m.aadhaarChecksum);
    });

    it('says when the passwords do not match', async () => {
      const { user } = await openRegistration();
      await fillForm(user, { ...buildRegistration(), ConfirmPassword: 'Other@1234' });
      await submit(user);
      expect(field.confirm()).toHaveAccessibleDescription(m.confirmMismatch);
      expect(field.confirm()).toHaveFocus();
    });

    it('clears a field error as soon as that field is edited', async () => {
      const { user } = await openRegistration();
      await submit(user);
      await user.type(field.password(), 'x');
      expect(screen.queryByText(m.passwordRule)).not.toBeInTheDocument();
      expect(screen.getByText(m.confirmRequired)).toBeVisible();
    });

    it('keeps only digits in contact (10) and Aadhaar (12)', async () => {
      const { user } = await openRegistration();
      await user.type(field.contact(), 'ab98-765 43210 77');
      await user.type(field.aadhaar(), 'x2345 6789 0123 456');
      expect(field.contact()).toHaveValue('9876543210');
      expect(field.aadhaar()).toHaveValue('234567890123');
      expect(field.contact()).toHaveAttribute('inputmode', 'numeric');
      expect(field.aadhaar()).toHaveAttribute('maxlength', '12');
    });

    it('checks the email once, 500 ms after typing stops', async () => {
      await openRegistration();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const fetchSpy = vi.spyOn(globalThis, 'fetch');

      typeKeys(field.email(), 'half-typed@');
      await vi.advanceTimersByTimeAsync(1000);
      expect(checkRequests(fetchSpy, 'check-email')).toBe(0);

      fireEvent.change(field.email(), { target: { value: '' } });
      typeKeys(field.email(), existing.email);
      await vi.advanceTimersByTimeAsync(499);
      expect(checkRequests(fetchSpy, 'check-email')).toBe(0);

      await vi.advanceTimersByTimeAsync(1);
      vi.useRealTimers();
      expect(await screen.findByText(m.emailExists)).toBeVisible();
      expect(field.email()).toHaveAccessibleDescription(m.emailExists);
      // Every prefix from "…@example.co" on was a valid address; only the last one was asked about.
      expect(checkRequests(fetchSpy, 'check-email')).toBe(1);
    });

    it('flags a contact number and an Aadhaar number that are taken', async () => {
      const { user } = await openRegistration();
      await user.type(field.contact(), existing.contact);
      await user.type(field.aadhaar(), existing.adharNo);
      expect(await screen.findByText(m.contactExists)).toBeVisible();
      expect(await screen.findByText(m.aadhaarExists)).toBeVisible();
      expect(field.contact()).toHaveAccessibleDescription(m.contactExists);
      expect(field.aadhaar()).toHaveAccessibleDescription(m.aadhaarExists);
    });

    it.each([
      ['email', () => ({ email: employee.email }), field.email, m.emailExists],
      ['contact', () => ({ contact: existing.contact }), field.contact, m.contactExists],
      ['Aadhaar', () => ({ adharNo: existing.adharNo }), field.aadhaar, m.aadhaarExists],
    ] as const)('puts a 409 for a taken %s under that field', async (_name, overrides, input, message) => {
      await openRegistration();
      // No debounced check may fire, so the message can only come from the 409 answer.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const fetchSpy = vi.spyOn(globalThis, 'fetch');
      fillFormKeys(buildRegistration(overrides()));
      fireEvent.click(screen.getByRole('button', { name: 'Register' }));
      vi.useRealTimers();

      await waitFor(() => expect(input()).toHaveAccessibleDescription(message));
      expect(checkRequests(fetchSpy, 'check-')).toBe(0);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });

    it('registers an employee, says so for 2 s and then leaves the form', async () => {
      const { user, location } = await openRegistration();
      const fresh = buildRegistration();
      await fillForm(user, fresh);
      await submit(user);
      expect(await screen.findByText(m.success)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Register' })).toBeDisabled();
      expect(location.pathname).toBe('/registration');
      // "/" sends a signed-in Admin on to the dashboard.
      await waitFor(() => expect(location.pathname).toBe('/dashboard'), { timeout: 3500 });

      const answer = await fetch(
        `${server.url}/api/Registration/check-email?email=${encodeURIComponent(fresh.email)}`,
        {
          headers: { authorization: `Bearer ${admin.token}` },
        },
      );
      expect(await answer.json()).toBe(true);
    });
  });

  describe('when the server refuses', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('shows why to a visitor who is not signed in, stays put, and only logs the failed checks', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { user, location } = await openRegistration();
      await fillForm(user, buildRegistration({ email: employee.email }));
      await waitFor(() => expect(warn).toHaveBeenCalled(), { timeout: 2000 });
      expect(screen.queryByText(m.emailExists)).not.toBeInTheDocument();

      await submit(user);
      expect(await screen.findByRole('alert')).toHaveTextContent(m.adminOnly);
      expect(location.pathname).toBe('/registration');
    });

    it('shows why to an Employee', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      saveSession({ token: employee.token, email: employee.email, roleId: Role.Employee });
      const { user, location } = await openRegistration();
      await fillForm(user, buildRegistration());
      await submit(user);
      expect(await screen.findByRole('alert')).toHaveTextContent(m.adminOnly);
      expect(location.pathname).toBe('/registration');
      expect(localStorage.getItem('token')).toBe(employee.token);
    });
  });
});

describe('registering the very first account', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startApi();
  });

  afterAll(async () => {
    await server.close();
  });

  it("maps the server's field errors, then returns to the login screen after success", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { user, location } = await openRegistration();
    const first = buildRegistration({ roleId: Role.Employee });
    await fillForm(user, first);
    await submit(user);
    expect(await screen.findByText(m.firstAccountMustBeAdmin)).toBeVisible();
    expect(field.role()).toHaveAccessibleDescription(m.firstAccountMustBeAdmin);

    await user.selectOptions(field.role(), 'Admin');
    expect(screen.queryByText(m.firstAccountMustBeAdmin)).not.toBeInTheDocument();
    await submit(user);
    expect(await screen.findByText(m.success)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Welcome back' }, { timeout: 3500 })).toBeVisible();
    expect(location.pathname).toBe('/');
    vi.restoreAllMocks();
  });
});
