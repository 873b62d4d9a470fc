import type { ReactNode } from 'react';

interface PlaceholderScreenProps {
  title: string;
  children?: ReactNode;
}

/** Stand-in for a screen a later issue builds; keeps the route, title and guard in place. */
export function PlaceholderScreen({ title, children }: PlaceholderScreenProps) {
  return (
    <div className="page">
      <h1 className="page-title">{title}</h1>
      <p className="muted">{children ?? 'This screen is on its way.'}</p>
    </div>
  );
}
