import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { Role, type RoleId } from '../../../contract/roles';
import { saveSession } from '../../../src/lib/session';
import { renderApp } from '../support/render-app';

// Placeholder screens make no API calls, so a made-up token is enough to pass the guards.
function signInAs(roleId: RoleId) {
  saveSession({ token: 'test-token', email: 'asha.rao@example.com', roleId });
}

describe('routes and guards', () => {
  it('shows the login screen at / and at /login', async () => {
    for (const path of ['/', '/login']) {
      const view = renderApp(path);
      expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
      expect(screen.getByRole('button', { name: 'Login' })).toBeVisible();
      view.unmount();
    }
  });

  it('sends an anonymous visitor of a guarded route to the login screen', async () => {
    for (const path of ['/dashboard', '/leads', '/employee', '/employees']) {
      const view = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeVisible();
      expect(view.location.pathname).toBe('/');
      view.unmount();
    }
  });

  it('tells an Employee on the admin dashboard that it is not for them, with a way back', async () => {
    signInAs(Role.Employee);
    const { user, location } = renderApp('/dashboard');
    expect(await screen.findByText(messages.session.wrongRole)).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to My Board' }));
    expect(await screen.findByRole('heading', { name: 'Employee board' })).toBeVisible();
    expect(location.pathname).toBe('/employee');
  });

  it('tells an Admin the employee board is not for them', async () => {
    signInAs(Role.Admin);
    renderApp('/employee');
    expect(await screen.findByText(messages.session.wrongRole)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Admin Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
  });

  it('sends a signed-in Admin from the login screen to the dashboard', async () => {
    signInAs(Role.Admin);
    const { location } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(location.pathname).toBe('/dashboard');
  });

  it('shows the public placeholder screens', async () => {
    for (const [path, title] of [
      ['/forgot-password', 'Reset Password'],
      ['/reset-password?token=abc', 'Choose a New Password'],
      ['/lead/42', 'Sign In'],
    ]) {
      const view = renderApp(path as string);
      expect(await screen.findByRole('heading', { name: title })).toBeVisible();
      view.unmount();
    }
  });

  it('shows a not-found screen for unknown addresses', async () => {
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to LeadNest' })).toHaveAttribute('href', '/');
  });
});

describe('top navigation', () => {
  it("gives an Admin a collapsible menu with the Admin's screens", async () => {
    signInAs(Role.Admin);
    const { user, location } = renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    expect(screen.getByRole('link', { name: 'LeadNest' })).toHaveAttribute('href', '/dashboard');

    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    const menu = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(menu.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Dashboard',
      'Leads List',
      'Register Employee',
      'Employees',
    ]);
    await user.click(menu.getByRole('link', { name: 'Leads List' }));
    expect(await screen.findByRole('heading', { name: 'Leads List' })).toBeVisible();
    expect(location.pathname).toBe('/leads');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('gives an Employee Today first, then their boards', async () => {
    signInAs(Role.Employee);
    renderApp('/employee');
    await screen.findByRole('heading', { name: 'Employee board' });
    const menu = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(menu.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Today',
      'My Board',
      'Older Board',
    ]);
  });

  it('searches the leads list for an Admin', async () => {
    signInAs(Role.Admin);
    const { user, location } = renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    await user.type(screen.getByRole('searchbox', { name: 'Search leads' }), 'Meera K');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('heading', { name: 'Leads List' })).toBeVisible();
    expect(location.pathname).toBe('/leads');
    expect(new URLSearchParams(location.search).get('search')).toBe('Meera K');
  });

  it('leaves an Employee on their board when they search', async () => {
    signInAs(Role.Employee);
    const { user, location } = renderApp('/employee');
    await screen.findByRole('heading', { name: 'Employee board' });
    await user.type(screen.getByRole('searchbox', { name: 'Search leads' }), 'Meera');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(location.pathname).toBe('/employee');
  });

  it('logs out by clearing all local storage and returning to the login screen', async () => {
    signInAs(Role.Admin);
    localStorage.setItem('dashboardShowAll', 'true');
    const { user, location } = renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeVisible();
    expect(location.pathname).toBe('/');
    expect(localStorage.length).toBe(0);
  });
});
