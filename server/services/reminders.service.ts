import type { z } from 'zod';
import type { Reminder, reminderSchema } from '../../contract/lead-status';
import type { RemindersRepository } from '../repositories/reminders.repository';
import type { LeadStatusService } from './lead-status.service';
import type { TokenClaims } from './tokens';

type ReminderInput = z.output<typeof reminderSchema>;

interface Deps {
  reminders: RemindersRepository;
  ownLead: LeadStatusService['ownLead'];
}

function toReminder(r: {
  id: number;
  lead_id: number;
  lead_name: string;
  employee_email: string;
  reminder_time: string;
  note: string;
  is_sent: number;
  created_on: string;
}): Reminder {
  return {
    reminderId: r.id,
    leadId: r.lead_id,
    leadName: r.lead_name,
    employeeEmail: r.employee_email,
    reminderTime: r.reminder_time,
    note: r.note,
    isSent: r.is_sent === 1,
    createdOn: r.created_on,
  };
}

export function createRemindersService({ reminders, ownLead }: Deps) {
  return {
    /**
     * DESIGN.md §6: reminders live on the server. The email comes from the token, not the body:
     * a reminder is always the caller's own. A time already past is accepted, because an outbox
     * row may reach the server after the moment it names.
     */
    async add(actor: TokenClaims, input: ReminderInput): Promise<Reminder> {
      const lead = await ownLead(actor, input.leadId);
      const now = new Date().toISOString();
      const row = await reminders.insert({
        lead_id: lead.id,
        user_id: actor.userId,
        employee_email: actor.email,
        reminder_time: new Date(input.reminderTime).toISOString(),
        note: input.note?.trim() ?? '',
        is_sent: 0,
        created_by: actor.email,
        created_on: now,
      });
      return toReminder({ ...row, lead_name: lead.name });
    },

    async list(actor: TokenClaims): Promise<Reminder[]> {
      return (await reminders.listForUser(actor.userId)).map(toReminder);
    },
  };
}
export type RemindersService = ReturnType<typeof createRemindersService>;
