import { Role, type RoleId } from '../../contract/roles';

export const paths = {
  login: '/',
  loginAlias: '/login',
  registration: '/registration',
  dashboard: '/dashboard',
  employeeBoard: '/employee',
  olderBoard: '/employees',
  today: '/today',
  leads: '/leads',
  /** A lead's page with its timeline (issue 17); beside the spec's /lead/:id sign-in. */
  leadStory: '/leads/:id',
  lead: '/lead/:id',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  staff: '/staff',
  manager: '/manager',
} as const;

export const leadStoryPath = (leadId: number) => `/leads/${leadId}`;

/** Where each role lands after sign-in (spec §2; the Manager dashboard, issue 17). */
export function homePathFor(roleId: RoleId): string | null {
  if (roleId === Role.Admin) return paths.dashboard;
  if (roleId === Role.Manager) return paths.manager;
  if (roleId === Role.Employee) return paths.employeeBoard;
  return null;
}
