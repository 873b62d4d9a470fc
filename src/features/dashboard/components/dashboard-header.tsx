import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { clearSession } from '../../../lib/session';

/** Spec §2 header: title, a Register Employee link, and a Logout link that clears local storage. */
export function DashboardHeader() {
  return (
    <header className="dashboard-header">
      <h1 className="page-title">Admin Dashboard</h1>
      <nav className="dashboard-actions" aria-label="Dashboard">
        <Link className="button button-secondary" to={paths.registration}>
          Register Employee
        </Link>
        <Link className="button button-secondary" to={paths.login} replace onClick={clearSession}>
          Logout
        </Link>
      </nav>
    </header>
  );
}
