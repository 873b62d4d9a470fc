import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { signOut } from '../../../lib/sign-out';

/** Spec §2 header: title, a Register Employee link, and a Logout link that clears local storage. */
export function DashboardHeader() {
  const navigate = useNavigate();
  const logout = (event: MouseEvent<HTMLAnchorElement>) => {
    // The token is ended on the server before the device forgets it (issue 16).
    event.preventDefault();
    void signOut().then(() => navigate(paths.login, { replace: true }));
  };
  return (
    <header className="dashboard-header">
      <h1 className="page-title">Admin Dashboard</h1>
      <nav className="dashboard-actions" aria-label="Dashboard">
        <Link className="button button-secondary" to={paths.registration}>
          Register Employee
        </Link>
        <Link className="button button-secondary" to={paths.login} replace onClick={logout}>
          Logout
        </Link>
      </nav>
    </header>
  );
}
