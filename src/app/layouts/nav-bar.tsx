import { type FormEvent, lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { Role, type RoleId } from '../../../contract/roles';
import { useHeaderSlotRef } from '../../components/ui/header-slots';
import { Logo } from '../../components/ui/logo';
import { homePathFor, paths } from '../../config/paths';
import type { Session } from '../../lib/session';
import { signOut } from '../../lib/sign-out';
import { usePhoneLayout } from '../../lib/use-media-query';

// Only after a search: kept out of what every signed-in screen loads (issue 7: board ≤ 170 KB).
const LeadSearchResults = lazy(async () => ({
  default: (await import('../../features/search/components/lead-search-results')).LeadSearchResults,
}));

// Employees only, and only once the frame is up: these read IndexedDB (Dexie) and the push state.
const TodayCount = lazy(async () => ({
  default: (await import('../../features/reminders/components/today-count')).TodayCount,
}));
const NotificationsMenuItem = lazy(async () => ({
  default: (await import('../../features/push/components/notifications-menu-item')).NotificationsMenuItem,
}));

const menuLinks: Record<RoleId, { to: string; label: string }[]> = {
  [Role.Admin]: [
    { to: paths.dashboard, label: 'Dashboard' },
    { to: paths.leads, label: 'Leads List' },
    { to: paths.registration, label: 'Register Employee' },
    { to: paths.staff, label: 'Employees' },
  ],
  [Role.Manager]: [
    { to: paths.manager, label: 'Team' },
    { to: paths.staff, label: 'Employees' },
  ],
  [Role.Employee]: [
    { to: paths.today, label: 'Today' },
    { to: paths.employeeBoard, label: 'My Board' },
    { to: paths.olderBoard, label: 'Older Board' },
  ],
};

/** Spec §2: the welcome line shows the local part of the email, capitalised. */
function welcomeName(email: string): string {
  const local = email.split('@')[0] ?? '';
  return local.charAt(0).toUpperCase() + local.slice(1);
}

export function NavBar({ session }: { session: Session }) {
  const navigate = useNavigate();
  const phone = usePhoneLayout();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [resultsFor, setResultsFor] = useState<string | null>(null);
  const close = () => setOpen(false);
  const closeResults = useCallback(() => setResultsFor(null), []);
  const statusSlot = useHeaderSlotRef('status');
  const menuSlot = useHeaderSlotRef('menu');
  const root = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    // On a phone the menu lies over the board: Escape or a tap outside it closes it.
    if (!open || !phone) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, phone]);

  const logout = async () => {
    // An employee's device holds their leads and maybe unsynced changes: the same warning and
    // clean-up as the board's own Logout. Loaded on demand so Dexie stays out of other screens.
    if (session.roleId === Role.Employee) {
      const { releaseDeviceData } = await import('../../features/sync/sign-out');
      if (!(await releaseDeviceData(session.email))) return;
    }
    await signOut();
    navigate(paths.login, { replace: true });
  };

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const search = query.trim();
    close();
    // An Admin's results are the Leads List; other roles get a result list under the bar.
    if (session.roleId === Role.Admin) {
      navigate(search ? `${paths.leads}?search=${encodeURIComponent(search)}` : paths.leads);
    } else {
      setResultsFor(search || null);
    }
  };

  const searchForm = (
    // biome-ignore lint/a11y/useSemanticElements: <search> is unknown to Safari < 17 and Chrome < 118.
    <form className="nav-search" role="search" onSubmit={onSearch}>
      <input
        className="nav-search-input"
        type="search"
        aria-label="Search leads"
        placeholder="Search leads"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <button className="button button-light" type="submit">
        Search
      </button>
    </form>
  );
  const logoutButton = (
    <button type="button" className="nav-link nav-logout" onClick={() => void logout()}>
      Logout
    </button>
  );

  // On a phone (issue 18) the bar is one row: brand, the screen's status, the menu button. The
  // menu holds the greeting, the links, the screen's own controls, the search and Logout.
  return (
    <header className="nav" ref={root}>
      <div className="nav-inner">
        <Link className="nav-brand" to={homePathFor(session.roleId) ?? paths.login} onClick={close}>
          <span className="nav-logo">
            <Logo size={40} />
          </span>
          <span className="nav-brand-text">LeadNest</span>
        </Link>
        {phone ? <div className="nav-status" ref={statusSlot} /> : null}
        <button
          ref={toggle}
          type="button"
          className="nav-toggle"
          aria-expanded={open}
          aria-controls="nav-menu"
          onClick={() => setOpen((o) => !o)}
        >
          <span className="visually-hidden">Menu</span>
          <span className="nav-toggle-bars" aria-hidden="true" />
        </button>
        <div id="nav-menu" className="nav-menu" data-open={open}>
          {phone ? <p className="nav-welcome">Welcome, {welcomeName(session.email)}</p> : null}
          <nav aria-label="Main">
            <ul className="nav-links">
              {menuLinks[session.roleId].map((link) => (
                <li key={link.to}>
                  <NavLink className="nav-link" to={link.to} onClick={close}>
                    {link.label}
                    {link.to === paths.today ? (
                      <Suspense fallback={null}>
                        <TodayCount email={session.email} />
                      </Suspense>
                    ) : null}
                  </NavLink>
                </li>
              ))}
              {session.roleId === Role.Employee ? (
                <li>
                  <Suspense fallback={null}>
                    <NotificationsMenuItem email={session.email} />
                  </Suspense>
                </li>
              ) : null}
              {phone ? null : <li>{logoutButton}</li>}
            </ul>
          </nav>
          {phone ? (
            <>
              <div className="nav-menu-tools" ref={menuSlot} />
              {searchForm}
              {logoutButton}
            </>
          ) : null}
        </div>
        {phone ? null : searchForm}
      </div>
      {resultsFor ? (
        <Suspense fallback={null}>
          <LeadSearchResults query={resultsFor} onClose={closeResults} />
        </Suspense>
      ) : null}
    </header>
  );
}
