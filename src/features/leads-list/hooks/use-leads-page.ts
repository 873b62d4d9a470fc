import { useCallback, useEffect, useState } from 'react';
import { messages } from '../../../../contract/messages';
import { fetchLeadsPage, type LeadsFilter, type LeadsPage } from '../api/leads';
import { toastLeadsError } from '../components/leads-toaster';

/** The shown page of leads, fetched again whenever the search, a filter, the page or `reload()` asks. */
export function useLeadsPage(search: string, page: number, pageSize: number, filter: LeadsFilter = {}) {
  const [data, setData] = useState<LeadsPage | null>(null);
  const [loading, setLoading] = useState(true);
  const [reloads, setReloads] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` is the reason to fetch again.
  useEffect(() => {
    // Aborting the previous request keeps a slow answer for old search text from replacing a newer one.
    const controller = new AbortController();
    setLoading(true);
    fetchLeadsPage(search, page, controller.signal, pageSize, filter).then(
      (next) => {
        setData(next);
        setLoading(false);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // Spec §8 only logged this; the user is told too.
        console.error(messages.leadsList.fetchFailed, error);
        toastLeadsError(messages.leadsList.fetchFailed);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [search, page, pageSize, filter, reloads]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { data, setData, loading, reload };
}
