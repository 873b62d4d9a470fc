import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { Lead } from '../../../../contract/leads';
import { Role } from '../../../../contract/roles';
import type { ReassignAnswer, StaffMember } from '../../../../contract/staff';
import { isApiError } from '../../../lib/api-client';
import { fetchHeldLeads, reassign } from '../api/staff';

interface Props {
  from: StaffMember;
  staff: StaffMember[];
  onDone: (answer: ReassignAnswer) => void;
  onCancel: () => void;
}

const SPREAD = 'spread';

export const leadCount = (n: number) => `${n} ${n === 1 ? 'lead' : 'leads'}`;

/** Moves one account's open leads: all or chosen ones, to one employee or spread (issue 17). */
export function ReassignPanel({ from, staff, onDone, onCancel }: Props) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const targets = staff.filter(
    (m) => m.active && m.roleId === Role.Employee && m.registrationId !== from.registrationId,
  );
  const [to, setTo] = useState(SPREAD);
  const [which, setWhich] = useState<'all' | 'chosen'>('all');
  const [leads, setLeads] = useState<Lead[] | null>(null);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    if (which !== 'chosen' || leads) return;
    const abort = new AbortController();
    fetchHeldLeads(from.registrationId, abort.signal).then(setLeads, (e: unknown) => {
      if (!abort.signal.aborted) setError(isApiError(e) ? e.problem.message : 'Could not load the leads.');
    });
    return () => abort.abort();
  }, [which, leads, from.registrationId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (which === 'chosen' && chosen.size === 0) {
      setError('Choose at least one lead to move.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onDone(
        await reassign({
          fromEmployeeId: from.registrationId,
          ...(to === SPREAD ? {} : { toEmployeeId: Number(to) }),
          ...(which === 'chosen' ? { leadIds: [...chosen] } : {}),
        }),
      );
    } catch (e) {
      setError(
        isApiError(e) && e.problem.message ? e.problem.message : 'Reassignment failed. Please try again.',
      );
      setBusy(false);
    }
  };

  const toggle = (id: number) =>
    setChosen((c) => {
      const next = new Set(c);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <section className="staff-panel" aria-labelledby={titleId}>
      <h2 id={titleId} ref={heading} tabIndex={-1} className="staff-panel-title">
        Reassign leads of {from.email}
      </h2>
      <form className="form" onSubmit={submit}>
        <fieldset className="staff-fieldset">
          <legend className="field-label">Which leads</legend>
          <label className="staff-choice">
            <input type="radio" name="which" checked={which === 'all'} onChange={() => setWhich('all')} />
            All open leads ({from.openLeads})
          </label>
          <label className="staff-choice">
            <input
              type="radio"
              name="which"
              checked={which === 'chosen'}
              onChange={() => setWhich('chosen')}
            />
            Only the leads I choose
          </label>
        </fieldset>
        {which === 'chosen' ? (
          leads ? (
            <ul className="staff-lead-picks" aria-label="Leads to move">
              {leads.map((lead) => (
                <li key={lead.leadID}>
                  <label className="staff-choice">
                    <input
                      type="checkbox"
                      checked={chosen.has(lead.leadID)}
                      onChange={() => toggle(lead.leadID)}
                    />
                    <span>
                      {lead.name} <span className="muted">· {lead.phoneNo}</span>
                      {lead.status ? <span className="muted"> · {lead.status}</span> : null}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted" role="status">
              Loading leads...
            </p>
          )
        ) : null}
        <label className="field">
          <span className="field-label">Move them to</span>
          <select className="input select" value={to} onChange={(e) => setTo(e.target.value)}>
            <option value={SPREAD}>Spread across active employees (fewest open leads first)</option>
            {targets.map((m) => (
              <option key={m.registrationId} value={m.registrationId}>
                {m.email} ({m.openLeads} open)
              </option>
            ))}
          </select>
        </label>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="staff-panel-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Moving…' : `Move ${leadCount(which === 'chosen' ? chosen.size : from.openLeads)}`}
          </button>
          <button type="button" className="button button-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
