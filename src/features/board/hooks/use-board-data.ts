import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo, useRef } from 'react';
import type { Reminder } from '../../../../contract/lead-status';
import type { CachedLead, LeadNestDb, OptionLists, OutboxRow } from '../../../lib/db';
import { buildColumns, statusColumns } from '../lib/columns';

const noOptions: OptionLists = { callStatuses: [], clientStatuses: [], locations: [], configurations: [] };

/** Everything the board draws, read live from IndexedDB: it never waits on the network (DESIGN.md §5). */
export function useBoardData(db: LeadNestDb) {
  const leads = useStableLeads(useLiveQuery(() => db.leads.toArray(), [db]));
  const optionRows = useLiveQuery(() => db.options.toArray(), [db]);
  const reminders = useLiveQuery(() => db.getMeta('reminders'), [db]);
  const notified = useLiveQuery(() => db.getMeta('notifiedReminders'), [db]);
  const outbox = useLiveQuery(() => db.outbox.orderBy('[createdAt+id]').toArray(), [db]);

  const options = useMemo(() => {
    const lists: OptionLists = { ...noOptions };
    for (const row of optionRows ?? []) Object.assign(lists, { [row.key]: row.items });
    return lists;
  }, [optionRows]);
  const statuses = useMemo(() => statusColumns(options.clientStatuses), [options.clientStatuses]);
  const columns = useMemo(() => buildColumns(leads ?? [], statuses), [leads, statuses]);

  return {
    // Drawn once both the leads and the option lists (the columns) are read, so cards do not
    // jump columns on the first paint.
    loaded: leads !== undefined && optionRows !== undefined,
    leads: leads ?? [],
    columns,
    statuses,
    options: { ...options, clientStatuses: statuses },
    reminders: reminders ?? ([] as Reminder[]),
    notified: notified ?? [],
    outbox: outbox ?? ([] as OutboxRow[]),
  };
}

function sameFields<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

const sameLead = (a: CachedLead, b: CachedLead) =>
  sameFields({ ...a, base: null }, { ...b, base: null }) &&
  (a.base === b.base || (a.base !== null && b.base !== null && sameFields(a.base, b.base)));

/**
 * Every refresh rewrites the cached leads, and IndexedDB answers new objects each time; a lead
 * whose fields did not change keeps its previous object, so its card is not drawn again.
 */
function useStableLeads(leads: CachedLead[] | undefined): CachedLead[] | undefined {
  const previous = useRef(new Map<number, CachedLead>());
  return useMemo(() => {
    if (!leads) return undefined;
    const kept = new Map<number, CachedLead>();
    const stable = leads.map((lead) => {
      const before = previous.current.get(lead.leadID);
      const same = before && sameLead(before, lead) ? before : lead;
      kept.set(lead.leadID, same);
      return same;
    });
    previous.current = kept;
    return stable;
  }, [leads]);
}
