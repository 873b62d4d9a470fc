import { type ComponentType, lazy, Suspense } from 'react';
import { Outlet, Route, Routes } from 'react-router-dom';
import { Role } from '../../contract/roles';
import { paths } from '../config/paths';
import { RequireRole } from './layouts/require-role';
import { LoginRoute } from './routes/login';
import { PageLoading } from './routes/page-loading';

// Only the login screen ships in the first bundle (budget: login route ≤ 100 KB gzip); every other
// screen, the signed-in frame and zod-based forms load on demand.
function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const SignedInLayout = lazyNamed(() => import('./layouts/signed-in-layout'), 'SignedInLayout');
const RegistrationRoute = lazyNamed(() => import('./routes/registration'), 'RegistrationRoute');
const NotFound = lazyNamed(() => import('./routes/not-found'), 'NotFound');
const AdminDashboard = lazyNamed(
  () => import('../features/dashboard/components/admin-dashboard'),
  'AdminDashboard',
);
const LeadsList = lazyNamed(() => import('../features/leads-list/components/leads-list'), 'LeadsList');
const EmployeeBoard = lazyNamed(() => import('../features/board/components/employee-board'), 'EmployeeBoard');
const Today = lazyNamed(() => import('../features/reminders/components/today'), 'Today');
const OlderBoard = lazyNamed(() => import('../features/board/components/older-board'), 'OlderBoard');
const LeadPage = lazyNamed(() => import('./routes/lead-page'), 'LeadPage');
const TeamScreens = lazyNamed(() => import('./routes/team-screens'), 'TeamScreens');
const LeadLogin = lazyNamed(
  () => import('../features/lead-login/components/lead-login-form'),
  'LeadLoginForm',
);
const ForgotPassword = lazyNamed(
  () => import('../features/password-reset/components/forgot-password'),
  'ForgotPassword',
);
const ResetPassword = lazyNamed(
  () => import('../features/password-reset/components/reset-password'),
  'ResetPassword',
);

function RootLayout() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}

/** Every route of spec §2; rendered inside a BrowserRouter (or a MemoryRouter in tests). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route path={paths.login} element={<LoginRoute />} />
        <Route path={paths.loginAlias} element={<LoginRoute />} />
        <Route path={paths.registration} element={<RegistrationRoute />} />
        <Route path={paths.forgotPassword} element={<ForgotPassword />} />
        <Route path={paths.resetPassword} element={<ResetPassword />} />
        <Route path={paths.lead} element={<LeadLogin />} />
        <Route element={<SignedInLayout />}>
          <Route element={<RequireRole roles={[Role.Admin]} />}>
            <Route path={paths.dashboard} element={<AdminDashboard />} />
            <Route path={paths.leads} element={<LeadsList />} />
          </Route>
          <Route element={<RequireRole roles={[Role.Admin, Role.Manager]} />}>
            <Route path={paths.staff} element={<TeamScreens />} />
            <Route path={paths.manager} element={<TeamScreens />} />
          </Route>
          <Route element={<RequireRole roles={[Role.Admin, Role.Manager, Role.Employee]} />}>
            <Route path={paths.leadStory} element={<LeadPage />} />
          </Route>
          <Route element={<RequireRole roles={[Role.Employee]} />}>
            <Route path={paths.employeeBoard} element={<EmployeeBoard />} />
            <Route path={paths.olderBoard} element={<OlderBoard />} />
            <Route path={paths.today} element={<Today />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
