import { useMemo } from 'react';
import { userDb } from '../../../lib/db';
import { useFollowUps, useNow } from '../hooks/use-follow-ups';
import { dueCount } from '../lib/follow-ups';

/** The nav's badge on Today: follow-ups due today, overdue ones included, from the device. */
export function TodayCount({ email }: { email: string }) {
  const db = useMemo(() => userDb(email), [email]);
  const { items } = useFollowUps(db);
  const n = dueCount(items, useNow());
  if (n === 0) return null;
  return (
    <span className="nav-count">
      {n}
      <span className="visually-hidden"> due</span>
    </span>
  );
}
