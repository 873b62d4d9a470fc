import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useRef, useState } from 'react';
import type { Lead } from '../../../../contract/leads';
import { isApiError } from '../../../lib/api-client';
import { type DrillDown, fetchDrillDownLeads } from '../api/activity';

const ROW_HEIGHT = 64;

/** An employee's or a campaign's leads, virtualised: a campaign can hold tens of thousands. */
export function DrillDownList({ target, onClose }: { target: DrillDown; onClose: () => void }) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [leads, setLeads] = useState<Lead[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    heading.current?.focus();
    const abort = new AbortController();
    setLeads(null);
    fetchDrillDownLeads(target, abort.signal).then(setLeads, (e: unknown) => {
      if (!abort.signal.aborted) setError(isApiError(e) ? e.problem.message : 'Could not load the leads.');
    });
    return () => abort.abort();
  }, [target]);

  const virtual = useVirtualizer({
    count: leads?.length ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });

  return (
    <section className="manager-card manager-drill" aria-labelledby={titleId}>
      <div className="manager-drill-head">
        <h2 id={titleId} ref={heading} tabIndex={-1} className="manager-title">
          Leads of {target.label}
          {leads ? <span className="muted"> ({leads.length})</span> : null}
        </h2>
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {!leads && !error ? (
        <p className="muted" role="status">
          Loading leads...
        </p>
      ) : null}
      {leads && leads.length === 0 ? <p className="muted">No leads.</p> : null}
      {leads && leads.length > 0 ? (
        <div ref={scroller} className="manager-drill-scroll">
          <ul
            className="manager-drill-list"
            style={{ height: virtual.getTotalSize() }}
            aria-label={`Leads of ${target.label}`}
          >
            {virtual.getVirtualItems().map((item) => {
              const lead = leads[item.index]!;
              return (
                <li
                  key={lead.leadID}
                  className="manager-drill-row"
                  style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                >
                  <span className="manager-drill-name">{lead.name}</span>
                  <span className="muted">
                    {lead.phoneNo} · {lead.status ?? 'New'}
                    {target.kind === 'campaign'
                      ? ` · ${lead.assignedTo || 'unassigned'}`
                      : ` · ${lead.siteVisit || 'no campaign'}`}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
