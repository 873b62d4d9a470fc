import { Suspense } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { PageLoading } from '../routes/page-loading';
import { NavBar } from './nav-bar';

/** Frame of every guarded screen; anonymous visitors go to the login screen. */
export function SignedInLayout() {
  const session = useSession();
  if (!session) return <Navigate to={paths.login} replace />;
  return (
    <>
      <NavBar session={session} />
      <main className="app-main" id="main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
