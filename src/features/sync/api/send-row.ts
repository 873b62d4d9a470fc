import type { FollowUp } from '../../../../contract/follow-ups';
import type { NoteRecordAnswer, Reminder, StatusChangeAnswer } from '../../../../contract/lead-status';
import type { Lead } from '../../../../contract/leads';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../contract/sync';
import { api } from '../../../lib/api-client';
import type { OutboxRow } from '../../../lib/db';

export type RowAnswer =
  | { kind: 'status'; body: StatusChangeAnswer }
  | { kind: 'note'; body: NoteRecordAnswer }
  | { kind: 'reminder'; body: Reminder }
  | { kind: 'lead'; body: Lead }
  | { kind: 'reminder-update'; body: FollowUp };

/** Sends one outbox row (spec §7 calls); its id is the Idempotency-Key, so a resend is harmless. */
export async function sendRow(row: OutboxRow): Promise<RowAnswer> {
  const options = { json: row.payload, headers: { [IDEMPOTENCY_KEY_HEADER]: row.id } };
  switch (row.kind) {
    case 'status':
      return {
        kind: 'status',
        body: await api.put(`LeadStatus/leads/${row.leadId}/status`, options).json<StatusChangeAnswer>(),
      };
    case 'note':
      return { kind: 'note', body: await api.post('LeadStatus', options).json<NoteRecordAnswer>() };
    case 'reminder':
      return { kind: 'reminder', body: await api.post('LeadStatus/add-reminder', options).json<Reminder>() };
    case 'lead':
      return { kind: 'lead', body: await api.post('Admin/leads', options).json<Lead>() };
    case 'reminder-update': {
      // The payload carries the reminder's id beside the PUT body (contract/follow-ups.ts).
      const { reminderId, ...body } = row.payload as { reminderId: number };
      return {
        kind: 'reminder-update',
        body: await api
          .put(`LeadStatus/reminders/${reminderId}`, { ...options, json: body })
          .json<FollowUp>(),
      };
    }
  }
}
