import { Suspense } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { HeaderSlotsProvider } from '../../components/ui/header-slots';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { PageLoading } from '../routes/page-loading';
import { NavBar } from './nav-bar';
import { useOpenLeadMessages } from './use-open-lead-messages';

/** Frame of every guarded screen; anonymous visitors go to the login screen. */
export function SignedInLayout() {
  const session = useSession();
  useOpenLeadMessages();
  if (!session) return <Navigate to={paths.login} replace />;
  return (
    <HeaderSlotsProvider>
      <NavBar session={session} />
      <main className="app-main" id="main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </HeaderSlotsProvider>
  );
}
