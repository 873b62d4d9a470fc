import type { SyncChanges, SyncOptionLists } from '../../../contract/sync-batch';
import { type LeadsRepository, toLeadJson } from '../../repositories/leads.repository';
import type { OptionsRepository } from '../../repositories/options.repository';
import {
  formatCursor,
  idChunks,
  parseCursor,
  type SyncChangesRepository,
} from '../../repositories/sync-changes.repository';

/**
 * GET /api/sync/changes (issue 18): an employee's leads changed since their cursor, the ids that
 * left them, and the option lists when those changed. No cursor, or one from another database
 * (above today's), is the full set.
 */
export function createSyncChangesService({
  changes,
  leads,
  options,
}: {
  changes: SyncChangesRepository;
  leads: LeadsRepository;
  options: OptionsRepository;
}) {
  async function optionLists(): Promise<SyncOptionLists> {
    const [calls, clients, locations, configurations] = await Promise.all([
      options.list('call_statuses'),
      options.list('client_statuses'),
      options.list('locations'),
      options.list('configurations'),
    ]);
    return {
      callStatuses: calls.map((o) => ({ callStatusId: o.id, callStat: o.name })),
      clientStatuses: clients.map((o) => ({ clientStatusId: o.id, clientStat: o.name })),
      locations: locations.map((o) => ({ locationId: o.id, locationName: o.name })),
      configurations: configurations.map((o) => ({ configurationId: o.id, configurationType: o.name })),
    };
  }

  return {
    /** Drops lead_changes rows that change no answer (see the repository); safe at any time. */
    prune: (pause?: () => Promise<void>) => changes.pruneSuperseded(undefined, pause),

    async since(userId: number, sinceText: string | undefined): Promise<SyncChanges> {
      const upTo = await changes.cursor();
      const cursor = formatCursor(upTo);
      const since = sinceText === undefined ? undefined : parseCursor(sinceText);
      if (since === undefined || since.seq > upTo.seq || since.leadId > upTo.leadId) {
        const all = await leads.list({ assignedToId: userId });
        return { full: true, leads: all.map(toLeadJson), removed: [], options: await optionLists(), cursor };
      }
      const [changed, created] = await Promise.all([
        changes.changedLeadIds(userId, since.seq, upTo.seq),
        changes.newLeadIds(userId, since.leadId, upTo.leadId),
      ]);
      const ids = [...new Set([...changed, ...created])];
      const rows = (
        await Promise.all(idChunks(ids).map((part) => leads.listIds(part, { assignedToId: userId })))
      ).flat();
      const still = new Set(rows.map((r) => r.id));
      const answer: SyncChanges = {
        full: false,
        leads: rows.map(toLeadJson),
        removed: ids.filter((id) => !still.has(id)).sort((a, b) => a - b),
        cursor,
      };
      if (await changes.optionsChanged(since.seq, upTo.seq)) answer.options = await optionLists();
      return answer;
    },
  };
}
export type SyncChangesService = ReturnType<typeof createSyncChangesService>;
