import { useEffect, useState } from 'react';
import type { LeadListItem } from '../../../../contract/leads-paging';
import { searchLeads } from '../api/search';
import './lead-search-results.css';
import { Link } from 'react-router-dom';
import { leadStoryPath } from '../../../config/paths';

type State =
  | { kind: 'loading' }
  | { kind: 'done'; items: LeadListItem[]; total: number }
  | { kind: 'failed'; offline: boolean };

interface Props {
  query: string;
  onClose: () => void;
}

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** The result list the navbar search opens (spec §1) for roles without the Leads List. */
export function LeadSearchResults({ query, onClose }: Props) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    searchLeads(query, controller.signal).then(
      (found) => setState({ kind: 'done', ...found }),
      () => {
        if (!controller.signal.aborted) setState({ kind: 'failed', offline: !navigator.onLine });
      },
    );
    return () => controller.abort();
  }, [query]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <section className="search-results" aria-labelledby="search-results-title">
      <div className="search-results-head">
        <h2 id="search-results-title" className="search-results-title">
          {`Results for “${query}”`}
        </h2>
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {state.kind === 'loading' ? (
        <p className="muted" role="status">
          Searching…
        </p>
      ) : null}
      {state.kind === 'failed' ? (
        <p className="form-error" role="alert">
          {state.offline
            ? 'Search needs a connection. Please try again when online.'
            : 'Search failed. Please try again.'}
        </p>
      ) : null}
      {state.kind === 'done' ? (
        <>
          <p className="muted" role="status">
            {state.total === 0
              ? 'No leads match this search.'
              : state.total > state.items.length
                ? `${state.total} leads found; showing the first ${state.items.length}.`
                : `${state.total} ${state.total === 1 ? 'lead' : 'leads'} found.`}
          </p>
          <ul className="search-results-list">
            {state.items.map((lead) => (
              <li key={lead.leadID} className="search-result">
                <div className="search-result-text">
                  <strong>
                    <Link className="lead-link" to={leadStoryPath(lead.leadID)} onClick={onClose}>
                      {lead.name}
                    </Link>
                  </strong>
                  <span className="muted">{[lead.email, lead.contactNo].filter(Boolean).join(' · ')}</span>
                </div>
                <a
                  className="button button-secondary"
                  href={telHref(lead.contactNo)}
                  aria-label={`Call ${lead.name}`}
                >
                  Call
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
