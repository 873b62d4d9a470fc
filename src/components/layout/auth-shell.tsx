import type { ReactNode } from 'react';
import { Logo } from '../ui/logo';

interface AuthShellProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
  wide?: boolean;
}

/** The signed-out frame: brand panel beside a form card (stacked on phones). */
export function AuthShell({ title, subtitle, children, wide = false }: AuthShellProps) {
  return (
    <div className="auth-shell">
      <aside className="auth-brand">
        <div className="auth-brand-inner">
          <div className="brand-lockup">
            <Logo size={48} />
            <span className="brand-name">LeadNest</span>
          </div>
          <p className="auth-tagline">
            Every lead, every call note, every follow-up — in one place, even offline.
          </p>
        </div>
      </aside>
      <main className="auth-main">
        <section className={`auth-card${wide ? ' auth-card-wide' : ''}`} aria-labelledby="auth-title">
          <h1 id="auth-title" className="auth-title">
            {title}
          </h1>
          {subtitle ? <p className="auth-subtitle">{subtitle}</p> : null}
          {children}
        </section>
      </main>
    </div>
  );
}
