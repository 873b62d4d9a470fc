import { Role, type RoleId } from '../../contract/roles';

export const paths = {
  login: '/',
  loginAlias: '/login',
  registration: '/registration',
  dashboard: '/dashboard',
  employeeBoard: '/employee',
  olderBoard: '/employees',
  leads: '/leads',
  lead: '/lead/:id',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
} as const;

/** Where each role lands after sign-in (spec §2); Managers have no screen yet. */
export function homePathFor(roleId: RoleId): string | null {
  if (roleId === Role.Admin) return paths.dashboard;
  if (roleId === Role.Employee) return paths.employeeBoard;
  return null;
}
