import type { z } from 'zod';
import {
  type FollowUp,
  followUpMessages,
  type ReminderListStatus,
  type reminderUpdateSchema,
} from '../../contract/follow-ups';
import type { reminderSchema } from '../../contract/lead-status';
import { notFound } from '../errors';
import type { OwnReminderRow, RemindersRepository } from '../repositories/reminders.repository';
import { armAt, parseChannels } from './follow-up-rules';
import type { LeadStatusService } from './lead-status.service';
import type { TokenClaims } from './tokens';

type ReminderInput = z.output<typeof reminderSchema>;
type ReminderUpdate = z.output<typeof reminderUpdateSchema>;

interface Deps {
  reminders: RemindersRepository;
  ownLead: LeadStatusService['ownLead'];
}

function toFollowUp(r: OwnReminderRow): FollowUp {
  return {
    reminderId: r.id,
    leadId: r.lead_id,
    leadName: r.lead_name,
    employeeEmail: r.employee_email,
    reminderTime: r.reminder_time,
    note: r.note,
    isSent: r.is_sent === 1,
    createdOn: r.created_on,
    leadPhone: r.lead_phone,
    isDone: r.done_at !== null,
    doneAt: r.done_at,
    sentAt: r.sent_at,
    channels: parseChannels(r.sent_channels),
  };
}

export function createRemindersService({ reminders, ownLead }: Deps) {
  async function findOwn(actor: TokenClaims, id: number): Promise<OwnReminderRow> {
    const row = await reminders.findOwn(actor.userId, id);
    if (!row) throw notFound(followUpMessages.reminderNotFound);
    return row;
  }

  return {
    /**
     * DESIGN.md §6: reminders live on the server. The email comes from the token, not the body:
     * a reminder is always the caller's own. A time already past is accepted, because an outbox
     * row may reach the server after the moment it names; such a reminder is listed as due but
     * not pushed (docs/follow-ups.md).
     */
    async add(actor: TokenClaims, input: ReminderInput): Promise<FollowUp> {
      const lead = await ownLead(actor, input.leadId);
      const now = new Date();
      const time = new Date(input.reminderTime).toISOString();
      const row = await reminders.insert({
        lead_id: lead.id,
        user_id: actor.userId,
        employee_email: actor.email,
        reminder_time: time,
        note: input.note?.trim() ?? '',
        is_sent: 0,
        created_by: actor.email,
        created_on: now.toISOString(),
        next_send_at: armAt(time, now),
      });
      return toFollowUp(await findOwn(actor, row.id));
    },

    async list(actor: TokenClaims, status?: ReminderListStatus): Promise<FollowUp[]> {
      return (await reminders.listForUser(actor.userId, status)).map(toFollowUp);
    },

    /**
     * Done, reopen or snooze one of the caller's reminders. Each clears the scheduler's claim, so
     * a send in progress cannot re-arm a reminder just marked done or undo a snooze.
     */
    async update(actor: TokenClaims, id: number, input: ReminderUpdate): Promise<FollowUp> {
      const row = await findOwn(actor, id);
      const now = new Date();
      if (input.snoozeUntil !== undefined) {
        const time = new Date(input.snoozeUntil).toISOString();
        await reminders.update(id, {
          reminder_time: time,
          done_at: null,
          is_sent: 0,
          sent_at: null,
          sent_channels: '',
          attempts: 0,
          last_error: null,
          claimed_at: null,
          next_send_at: armAt(time, now),
        });
      } else if (input.done) {
        // Done twice keeps the first time: an outbox resend must not move it.
        if (row.done_at === null) {
          await reminders.update(id, { done_at: now.toISOString(), next_send_at: null, claimed_at: null });
        }
      } else if (row.done_at !== null) {
        await reminders.update(id, {
          done_at: null,
          claimed_at: null,
          next_send_at: row.is_sent === 1 ? null : armAt(row.reminder_time, now),
        });
      }
      return toFollowUp(await findOwn(actor, id));
    },
  };
}
export type RemindersService = ReturnType<typeof createRemindersService>;
