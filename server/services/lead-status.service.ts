import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  type HistoryEntry,
  leadStatusMessages,
  type NoteRecordAnswer,
  type noteRecordSchema,
  type StatusChangeAnswer,
  sameStatusName,
  type statusChangeSchema,
} from '../../contract/lead-status';
import { messages } from '../../contract/messages';
import { Role } from '../../contract/roles';
import type { Database, OptionTableName } from '../db/schema';
import { badRequest, HttpError, notFound } from '../errors';
import type { LeadStatusRepository } from '../repositories/lead-status.repository';
import type { OptionsRepository } from '../repositories/options.repository';
import type { TokenClaims } from './tokens';

const m = messages.board;
const lm = leadStatusMessages;

type StatusChange = z.output<typeof statusChangeSchema>;
type NoteRecord = z.output<typeof noteRecordSchema>;
type Trx = Kysely<Database>;

interface Deps {
  db: Kysely<Database>;
  leadStatus: LeadStatusRepository;
  options: OptionsRepository;
}

export function createLeadStatusService({ db, leadStatus, options }: Deps) {
  /**
   * The lead, if the caller may touch it: an Admin any live lead, an Employee only leads assigned
   * to them (DESIGN.md §3). Anything else is 404, not 403, so a lead's existence is not revealed.
   */
  async function ownLead(actor: TokenClaims, leadId: number, trx: Trx = db, lock = false) {
    const lead = lock
      ? await leadStatus.lockLiveLead(leadId, trx)
      : await leadStatus.findLiveLead(leadId, trx);
    if (!lead || (actor.roleId !== Role.Admin && lead.assigned_to_id !== actor.userId))
      throw notFound(lm.leadNotFound);
    return lead;
  }

  /** Spec §4: a client status by id, or by its name matched case-insensitively and trimmed. */
  async function resolveClientStatus(id: number | null | undefined, name: string | null | undefined) {
    const all = await options.list('client_statuses');
    const found =
      id != null ? all.find((o) => o.id === id) : all.find((o) => sameStatusName(o.name, name ?? ''));
    if (!found) throw badRequest(lm.unknownClientStatus, { clientStatusId: [lm.unknownClientStatus] });
    return found;
  }

  async function checkOptions(record: NoteRecord): Promise<void> {
    const checks: [keyof NoteRecord, OptionTableName, number | null | undefined, string][] = [
      ['callStatusId', 'call_statuses', record.callStatusId, lm.unknownCallStatus],
      ['clientStatusId', 'client_statuses', record.clientStatusId, lm.unknownClientStatus],
      ['locationId', 'locations', record.locationId, lm.unknownLocation],
      ['configurationId', 'configurations', record.configurationId, lm.unknownConfiguration],
    ];
    const errors: Record<string, string[]> = {};
    for (const [field, table, id, message] of checks) {
      if (id != null && !(await leadStatus.optionExists(table, id))) errors[field] = [message];
    }
    const first = Object.values(errors)[0];
    if (first) throw badRequest(first[0]!, errors);
  }

  return {
    ownLead,

    /**
     * A move on the board (spec §3 status change). A lead without a status record needs a note
     * first: without one the answer is 409 requireNotePopup and nothing changes (DESIGN.md §5).
     */
    async changeStatus(
      actor: TokenClaims,
      leadId: number,
      change: StatusChange,
    ): Promise<StatusChangeAnswer> {
      if (change.leadId !== undefined && change.leadId !== leadId) {
        throw badRequest(lm.leadIdMismatch, { leadId: [lm.leadIdMismatch] });
      }
      await ownLead(actor, leadId);
      const clientStatus = await resolveClientStatus(change.clientStatusId, change.status);
      const notes = change.notes?.trim() || null;
      const now = new Date().toISOString();
      const firstCallStatus = (await options.list('call_statuses'))[0]?.id ?? 1;
      // One transaction: the status record and the note history never disagree.
      const row = await db.transaction().execute(async (trx) => {
        // Checked again where the write happens: a reassignment may have moved the lead since.
        await ownLead(actor, leadId, trx, true);
        const existing = await leadStatus.findByLead(leadId, trx);
        if (!existing && !notes) {
          throw new HttpError(409, m.requireNote, { requireNotePopup: true });
        }
        const saved = existing
          ? await leadStatus.setClientStatus(existing.id, clientStatus.id, notes, actor.email, now, trx)
          : await leadStatus.upsert(
              leadId,
              {
                call_status_id: firstCallStatus,
                client_status_id: clientStatus.id,
                location_id: null,
                configuration_id: null,
                notes: notes!,
                call_date_time: null,
              },
              actor.email,
              now,
              trx,
            );
        if (notes) {
          await leadStatus.appendNote(
            {
              lead_id: leadId,
              lead_status_id: saved.id,
              call_status_id: saved.call_status_id,
              client_status_id: saved.client_status_id,
              location_id: saved.location_id,
              configuration_id: saved.configuration_id,
              notes,
              call_date_time: now,
            },
            actor.email,
            now,
            trx,
          );
        }
        return saved;
      });
      return {
        leadStatusId: row.id,
        clientStatusId: clientStatus.id,
        status: clientStatus.name,
        message: m.statusUpdated,
      };
    },

    /**
     * Spec §3 note record: creates or updates the lead's status record (which moves the lead to
     * the note's client status, spec §4) and appends the note to its history.
     */
    async saveNote(actor: TokenClaims, record: NoteRecord): Promise<NoteRecordAnswer> {
      await ownLead(actor, record.leadId);
      const notes = record.notes?.trim();
      // errors.Notes, capital N: the key the spec's clients look for (spec §4).
      if (!notes) throw badRequest(m.descriptionRequired, { Notes: [m.descriptionRequired] });
      await checkOptions(record);
      const now = new Date().toISOString();
      const fields = {
        call_status_id: record.callStatusId,
        client_status_id: record.clientStatusId,
        location_id: record.locationId ?? null,
        configuration_id: record.configurationId ?? null,
        notes,
        call_date_time:
          record.callDateTime && !Number.isNaN(Date.parse(record.callDateTime))
            ? new Date(record.callDateTime).toISOString()
            : now,
      };
      const { row, noteId } = await db.transaction().execute(async (trx) => {
        await ownLead(actor, record.leadId, trx, true);
        const saved = await leadStatus.upsert(record.leadId, fields, actor.email, now, trx);
        const note = await leadStatus.appendNote(
          { lead_id: record.leadId, lead_status_id: saved.id, ...fields },
          actor.email,
          now,
          trx,
        );
        return { row: saved, noteId: note.id };
      });
      const status = (await leadStatus.optionName('client_statuses', row.client_status_id)) ?? '';
      return {
        id: row.id,
        leadStatusId: row.id,
        leadId: record.leadId,
        noteId,
        callStatusId: row.call_status_id,
        clientStatusId: row.client_status_id,
        status,
        message: m.noteSaved,
      };
    },

    async history(actor: TokenClaims, leadId: number): Promise<HistoryEntry[]> {
      await ownLead(actor, leadId);
      const rows = await leadStatus.history(leadId);
      return rows.map((r) => ({
        noteId: r.id,
        leadId: r.lead_id,
        leadStatusId: r.lead_status_id,
        notes: r.notes,
        callDateTime: r.call_date_time,
        callStatusId: r.call_status_id,
        callStat: r.call_stat,
        clientStatusId: r.client_status_id,
        clientStat: r.client_stat,
        locationId: r.location_id,
        locationName: r.location_name,
        configurationId: r.configuration_id,
        configurationType: r.configuration_type,
        createdBy: r.created_by,
        createdOn: r.created_on,
      }));
    },
  };
}
export type LeadStatusService = ReturnType<typeof createLeadStatusService>;
