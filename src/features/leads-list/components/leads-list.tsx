import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { LEADS_PAGE_SIZE, type LeadListItem } from '../../../../contract/leads-paging';
import { messages } from '../../../../contract/messages';
import { deleteLead, type LeadsFilter, updateLead } from '../api/leads';
import { useFilterOptions } from '../hooks/use-filter-options';
import { useLeadsPage } from '../hooks/use-leads-page';
import { type ListState, readListState, writeListState } from '../lib/list-params';
import { LeadFilters } from './lead-filters';
import { LeadsTable } from './leads-table';
import { LeadsToaster, toastLeadsError } from './leads-toaster';
import { Pagination } from './pagination';
import './leads-list.css';
import { ExportLeadsButton } from '../../../components/ui/export-leads-button';

const m = messages.leadsList;
const SEARCH_DEBOUNCE_MS = 300;
/** The spec's five a page first (§2); an admin working through a long list picks more. */
const PAGE_SIZES = [LEADS_PAGE_SIZE, 25, 100] as const;

/**
 * Spec §2 Leads List at /leads; `?search=` comes from the navbar search or from typing here, and
 * the page, page size and filters are in the address too (lib/list-params.ts), so Back from a
 * lead's page finds the list as it was left.
 */
export function LeadsList() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search')?.trim() ?? '';
  const [text, setText] = useState(search);
  const address = params.toString();
  // One object per address: a new filter object on every render would fetch the page again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `address` is what `params` says.
  const { page, pageSize, filter } = useMemo(() => readListState(params, PAGE_SIZES), [address]);
  const show = (change: Partial<ListState>) =>
    setParams(writeListState(params, { page, pageSize, filter, ...change }, PAGE_SIZES), { replace: true });
  const setPage = (next: number) => show({ page: next });
  const filterOptions = useFilterOptions();
  const written = useRef(search);
  const { data, setData, loading, reload } = useLeadsPage(search, page, pageSize, filter);
  const filtered = Object.keys(filter).length > 0;
  const onFilter = (next: LeadsFilter) => show({ filter: next, page: 1 });

  // A new ?search= from the navbar replaces the typed text; our own debounced write does not.
  useEffect(() => {
    if (search === written.current) return;
    written.current = search;
    setText(search);
  }, [search]);

  useEffect(() => {
    const wanted = text.trim();
    if (wanted === written.current) return;
    const timer = setTimeout(() => {
      written.current = wanted;
      setParams(
        (current) => {
          // Another search starts on its first page, with the filters kept.
          const next = new URLSearchParams(current);
          next.delete('page');
          if (wanted) next.set('search', wanted);
          else next.delete('search');
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, setParams]);

  const total = data?.total ?? 0;
  const pages = Math.ceil(total / pageSize);
  // A page past the end (a shortened list, an old link) shows the last one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `show` is new each render; page and pages decide.
  useEffect(() => {
    if (pages > 0 && page > pages) show({ page: pages });
  }, [page, pages]);

  const onDelete = async (lead: LeadListItem) => {
    if (!window.confirm(m.confirmDelete)) return;
    try {
      await deleteLead(lead.leadID);
      setData((d) => d && { items: d.items.filter((l) => l.leadID !== lead.leadID), total: d.total - 1 });
      reload(); // refills the page with the next lead
    } catch (error) {
      console.error(m.deleteFailed, error);
      toastLeadsError(m.deleteFailed);
    }
  };

  const onEdit = async (lead: LeadListItem) => {
    const name = window.prompt(m.editPrompt, lead.name)?.trim();
    if (!name) return;
    try {
      const updated = await updateLead({ ...lead, name });
      setData(
        (d) =>
          d && {
            ...d,
            items: d.items.map((l) => (l.leadID === lead.leadID ? { ...l, name: updated.name } : l)),
          },
      );
    } catch (error) {
      console.error(m.updateFailed, error);
      toastLeadsError(m.updateFailed);
    }
  };

  const first = (page - 1) * pageSize + 1;
  return (
    <div className="page leads-page">
      <LeadsToaster />
      <h1 className="page-title">Leads List</h1>
      <div className="leads-tools">
        <input
          className="input leads-search"
          type="search"
          aria-label={m.searchPlaceholder}
          placeholder={m.searchPlaceholder}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <label className="leads-page-size">
          Per page
          <select
            className="input"
            value={pageSize}
            onChange={(e) => show({ pageSize: Number(e.target.value), page: 1 })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        {/* Issue 17: the leads this search and these filters find, as a spreadsheet. */}
        <ExportLeadsButton filter={{ search, ...filter }} />
      </div>
      <LeadFilters filter={filter} options={filterOptions} onChange={onFilter} />
      {loading && !data ? (
        <p className="muted" role="status">
          Loading leads...
        </p>
      ) : null}
      {data && data.items.length > 0 ? (
        <>
          <LeadsTable leads={data.items} busy={loading} onEdit={onEdit} onDelete={onDelete} />
          <p className="muted leads-range" aria-live="polite">
            {`Showing ${first}–${first + data.items.length - 1} of ${total}`}
          </p>
        </>
      ) : null}
      {data && total === 0 && !loading && filtered ? (
        <div className="leads-empty">
          <p className="muted">No leads match these filters.</p>
          <button type="button" className="button button-secondary" onClick={() => onFilter({})}>
            Clear filters
          </button>
        </div>
      ) : null}
      {data && total === 0 && !loading && !filtered ? (
        <p className="muted">{search ? 'No leads match this search.' : 'No leads yet.'}</p>
      ) : null}
      <Pagination page={page} pages={pages} onSelect={setPage} />
    </div>
  );
}
