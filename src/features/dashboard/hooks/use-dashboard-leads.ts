import { useEffect, useState } from 'react';
import { fetchLeadsPage, type LeadRow } from '../api/dashboard-api';

// The first page is small so the table draws at once; the rest follow in bigger pages.
const FIRST_PAGE = 500;
const NEXT_PAGES = 5000;

export interface DashboardLeads {
  rows: LeadRow[];
  /** The list's size on the server; null until the first page answers. */
  total: number | null;
  /** The first page of this (re)load is still on its way. */
  loading: boolean;
  /** Every page has arrived. */
  complete: boolean;
  failed: boolean;
}

/**
 * The dashboard's lead list, read page after page with an id cursor (spec §4: unassigned by
 * default, all with Show All). 100,000 leads arrive in about twenty requests; each new load
 * (toggle, upload, assignment) cancels the one before.
 */
export function useDashboardLeads(showAll: boolean, reloadKey: number): DashboardLeads {
  const [state, setState] = useState<DashboardLeads>({
    rows: [],
    total: null,
    loading: true,
    complete: false,
    failed: false,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey is the "load again" signal.
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, failed: false }));
    (async () => {
      let rows: LeadRow[] = [];
      let afterId = 0;
      let pageSize = FIRST_PAGE;
      for (;;) {
        const page = await fetchLeadsPage(showAll, afterId, pageSize, controller.signal);
        rows = rows.length === 0 ? page.rows : rows.concat(page.rows);
        const complete = page.rows.length < pageSize;
        setState({ rows, total: page.total, loading: false, complete, failed: false });
        if (complete) return;
        afterId = page.rows.at(-1)!.leadID;
        pageSize = NEXT_PAGES;
      }
    })().catch(() => {
      if (!controller.signal.aborted)
        setState((s) => ({ ...s, loading: false, complete: true, failed: true }));
    });
    return () => controller.abort();
  }, [showAll, reloadKey]);

  return state;
}
