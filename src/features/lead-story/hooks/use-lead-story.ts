import { useEffect, useState } from 'react';
import type { LeadTimeline } from '../../../../contract/lead-timeline';
import type { Lead } from '../../../../contract/leads';
import { isApiError } from '../../../lib/api-client';
import { userDb } from '../../../lib/db';
import { useSession } from '../../../lib/session';
import { fetchTimeline } from '../api/timeline';

export type LeadStory =
  | { state: 'loading' }
  | { state: 'ready'; story: LeadTimeline }
  /** No connection: the lead as this device cached it (an employee's board), without its timeline. */
  | { state: 'offline'; lead: Lead }
  | { state: 'missing'; message: string }
  | { state: 'failed'; message: string };

/** The server's timeline, or, when it cannot be reached, the board's cached copy of the lead. */
export function useLeadStory(leadId: number): LeadStory {
  const session = useSession();
  const email = session?.email ?? '';
  const [story, setStory] = useState<LeadStory>({ state: 'loading' });

  useEffect(() => {
    const abort = new AbortController();
    setStory({ state: 'loading' });
    (async () => {
      try {
        const answer = await fetchTimeline(leadId, abort.signal);
        setStory({ state: 'ready', story: answer });
      } catch (error) {
        if (abort.signal.aborted) return;
        if (isApiError(error)) {
          const message = error.problem.message || 'Lead not found.';
          setStory(
            error.response.status === 404 ? { state: 'missing', message } : { state: 'failed', message },
          );
          return;
        }
        // Not an answer from the server: offline or unreachable. The board's cache may have it.
        const cached = email ? await userDb(email).leads.get(leadId) : undefined;
        if (abort.signal.aborted) return;
        setStory(
          cached
            ? { state: 'offline', lead: cached }
            : { state: 'failed', message: 'You are offline and this lead is not saved on this device.' },
        );
      }
    })();
    return () => abort.abort();
  }, [leadId, email]);

  return story;
}
