import { useLocation } from 'react-router-dom';
import { paths } from '../../config/paths';
import { ManagerDashboard } from '../../features/manager/components/manager-dashboard';
import { StaffScreen } from '../../features/staff/components/staff-screen';

// The Employees screen and the Manager dashboard (issue 17) behind one lazy import and one lazy
// component: each costs the shell's router bytes, and the employee board's budget (issue 7) has
// none spare.
export function TeamScreens() {
  return useLocation().pathname.toLowerCase().startsWith(paths.staff) ? (
    <StaffScreen />
  ) : (
    <ManagerDashboard />
  );
}
