import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import type { Reminder } from '../../../../contract/lead-status';
import type { LeadNestDb, OptionLists, OutboxRow } from '../../../lib/db';
import { buildColumns, statusColumns } from '../lib/columns';

const noOptions: OptionLists = { callStatuses: [], clientStatuses: [], locations: [], configurations: [] };

/** Everything the board draws, read live from IndexedDB: it never waits on the network (DESIGN.md §5). */
export function useBoardData(db: LeadNestDb) {
  const leads = useLiveQuery(() => db.leads.toArray(), [db]);
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
    loaded: leads !== undefined,
    leads: leads ?? [],
    columns,
    statuses,
    options: { ...options, clientStatuses: statuses },
    reminders: reminders ?? ([] as Reminder[]),
    notified: notified ?? [],
    outbox: outbox ?? ([] as OutboxRow[]),
  };
}
