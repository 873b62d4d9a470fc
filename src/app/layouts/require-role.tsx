import { Outlet } from 'react-router-dom';
import type { RoleId } from '../../../contract/roles';
import { useSession } from '../../lib/session';
import { WrongRole } from '../routes/wrong-role';

/** The UI mirrors the server's role checks (DESIGN.md §3); the server still enforces them. */
export function RequireRole({ roles }: { roles: readonly RoleId[] }) {
  const session = useSession();
  if (session && roles.includes(session.roleId)) return <Outlet />;
  return <WrongRole />;
}
