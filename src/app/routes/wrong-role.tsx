import { Link } from 'react-router-dom';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import { homePathFor, paths } from '../../config/paths';
import { useSession } from '../../lib/session';

export function WrongRole() {
  const session = useSession();
  const home = session ? homePathFor(session.roleId) : null;
  const label =
    session?.roleId === Role.Admin ? 'Back to Admin Dashboard' : home ? 'Back to My Board' : 'Back to Login';
  return (
    <div className="page page-narrow">
      <h1 className="page-title">No access</h1>
      <p className="notice notice-warning" role="alert">
        {messages.session.wrongRole}
      </p>
      <Link className="button button-primary" to={home ?? paths.login}>
        {label}
      </Link>
    </div>
  );
}
