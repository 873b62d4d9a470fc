import { type FormEvent, lazy, Suspense, useCallback, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { Role, type RoleId } from '../../../contract/roles';
import { Logo } from '../../components/ui/logo';
import { homePathFor, paths } from '../../config/paths';
import { clearSession, type Session } from '../../lib/session';

// Only after a search: kept out of what every signed-in screen loads (issue 7: board ≤ 170 KB).
const LeadSearchResults = lazy(async () => ({
  default: (await import('../../features/search/components/lead-search-results')).LeadSearchResults,
}));

const menuLinks: Record<RoleId, { to: string; label: string }[]> = {
  [Role.Admin]: [
    { to: paths.dashboard, label: 'Dashboard' },
    { to: paths.leads, label: 'Leads List' },
    { to: paths.registration, label: 'Register Employee' },
  ],
  [Role.Manager]: [],
  [Role.Employee]: [
    { to: paths.employeeBoard, label: 'My Board' },
    { to: paths.olderBoard, label: 'Older Board' },
  ],
};

export function NavBar({ session }: { session: Session }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [resultsFor, setResultsFor] = useState<string | null>(null);
  const close = () => setOpen(false);
  const closeResults = useCallback(() => setResultsFor(null), []);

  const logout = async () => {
    // An employee's device holds their leads and maybe unsynced changes: the same warning and
    // clean-up as the board's own Logout. Loaded on demand so Dexie stays out of other screens.
    if (session.roleId === Role.Employee) {
      const { releaseDeviceData } = await import('../../features/sync/sign-out');
      if (!(await releaseDeviceData(session.email))) return;
    }
    clearSession();
    navigate(paths.login, { replace: true });
  };

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const search = query.trim();
    // An Admin's results are the Leads List; other roles get a result list under the bar.
    if (session.roleId === Role.Admin) {
      navigate(search ? `${paths.leads}?search=${encodeURIComponent(search)}` : paths.leads);
    } else {
      setResultsFor(search || null);
    }
  };

  return (
    <header className="nav">
      <div className="nav-inner">
        <Link className="nav-brand" to={homePathFor(session.roleId) ?? paths.login} onClick={close}>
          <span className="nav-logo">
            <Logo size={40} />
          </span>
          <span className="nav-brand-text">LeadNest</span>
        </Link>
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={open}
          aria-controls="nav-menu"
          onClick={() => setOpen((o) => !o)}
        >
          <span className="visually-hidden">Menu</span>
          <span className="nav-toggle-bars" aria-hidden="true" />
        </button>
        <nav id="nav-menu" className="nav-menu" data-open={open} aria-label="Main">
          <ul className="nav-links">
            {menuLinks[session.roleId].map((link) => (
              <li key={link.to}>
                <NavLink className="nav-link" to={link.to} onClick={close}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button type="button" className="nav-link nav-logout" onClick={() => void logout()}>
                Logout
              </button>
            </li>
          </ul>
        </nav>
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is unknown to Safari < 17 and Chrome < 118. */}
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
      </div>
      {resultsFor ? (
        <Suspense fallback={null}>
          <LeadSearchResults query={resultsFor} onClose={closeResults} />
        </Suspense>
      ) : null}
    </header>
  );
}
