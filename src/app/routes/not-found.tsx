import { Link } from 'react-router-dom';
import { AuthShell } from '../../components/layout/auth-shell';
import { paths } from '../../config/paths';

export function NotFound() {
  return (
    <AuthShell title="Page not found" subtitle="The address may be mistyped, or the page has moved.">
      <Link className="button button-primary button-block" to={paths.login}>
        Go to LeadNest
      </Link>
    </AuthShell>
  );
}
