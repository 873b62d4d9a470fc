import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { messages } from '../../../contract/messages';
import { AuthShell } from '../../components/layout/auth-shell';
import { homePathFor } from '../../config/paths';
import { LoginForm } from '../../features/auth/components/login-form';
import { dismissSessionEndedNotice, readSession, sessionEndedNotice } from '../../lib/session';

export function LoginRoute() {
  // Read once: signing in here must not redirect before the 1.5 s success message (spec §2).
  const [home] = useState(() => {
    const session = readSession();
    return session ? homePathFor(session.roleId) : null;
  });
  const [sessionEnded] = useState(sessionEndedNotice);
  useEffect(dismissSessionEndedNotice, []);

  if (home) return <Navigate to={home} replace />;
  return (
    <AuthShell title="Welcome back" subtitle="Sign in to manage your leads.">
      {sessionEnded ? (
        <p className="notice notice-info" role="status">
          {messages.session.expired}
        </p>
      ) : null}
      <LoginForm />
    </AuthShell>
  );
}
