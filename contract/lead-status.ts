import { z } from 'zod';
import { NOTES_MAX } from './lead-status-rules';
import { messages } from './messages';

export {
  leadStatusMessages,
  NOTES_MAX,
  type NoteFormField,
  type NoteFormValues,
  noteFormErrors,
  sameStatusName,
} from './lead-status-rules';

const m = messages.board;

/** An option id as the spec's clients send it: a number, or digits in a string. */
const optionId = (message: string) => z.coerce.number({ error: message }).int(message).positive(message);
const optionalOptionId = z.coerce.number().int().positive().nullish();

/** Spec §3 "Status change" (both boards): PUT /api/LeadStatus/leads/{id}/status. */
export const statusChangeSchema = z
  .object({
    leadId: z.coerce.number().int().positive().optional(),
    leadStatusId: z.coerce.number().int().nullish(),
    clientStatusId: optionalOptionId,
    // The older board sends the column name instead of an id (spec §3).
    status: z.string().trim().max(100).nullish(),
    updatedBy: z.string().max(254).nullish(),
    notes: z.string().max(NOTES_MAX).nullish(),
  })
  .refine((v) => v.clientStatusId != null || (v.status != null && v.status !== ''), {
    path: ['clientStatusId'],
    message: m.clientStatusRequired,
  });
export type StatusChangeRequest = z.input<typeof statusChangeSchema>;

export const statusChangeAnswerSchema = z.object({
  leadStatusId: z.number().int(),
  clientStatusId: z.number().int(),
  status: z.string(),
  message: z.string(),
});
export type StatusChangeAnswer = z.infer<typeof statusChangeAnswerSchema>;

/**
 * Spec §3 "Note record": POST /api/LeadStatus. `notes` is checked by the service so that a
 * missing one answers `errors.Notes` (capital N), which is the key the spec's clients read.
 * Location and configuration stay optional here because the older board (spec §2) sends neither;
 * the /employee form requires them (see noteFormErrors).
 */
export const noteRecordSchema = z.object({
  id: z.coerce.number().int().nullish(),
  leadId: optionId('leadId is required.'),
  notes: z.string().max(NOTES_MAX).nullish(),
  callDateTime: z.string().max(40).nullish(),
  callStatusId: optionId(m.callStatusRequired),
  clientStatusId: optionId(m.clientStatusRequired),
  locationId: optionalOptionId,
  configurationId: optionalOptionId,
  clientPriorityId: z.coerce.number().int().nullish(),
  tokenId: z.coerce.number().int().nullish(),
  createdBy: z.string().max(254).nullish(),
  createdOn: z.string().max(40).nullish(),
  lastUpdatedBy: z.string().max(254).nullish(),
  lastUpdatedOn: z.string().max(40).nullish(),
});
export type NoteRecordRequest = z.input<typeof noteRecordSchema>;

export const noteRecordAnswerSchema = z.object({
  id: z.number().int(),
  leadStatusId: z.number().int(),
  leadId: z.number().int(),
  noteId: z.number().int(),
  callStatusId: z.number().int(),
  clientStatusId: z.number().int(),
  status: z.string(),
  message: z.string(),
});
export type NoteRecordAnswer = z.infer<typeof noteRecordAnswerSchema>;

/** Spec §3 "Reminder": POST /api/LeadStatus/add-reminder. The server takes the email from the token. */
export const reminderSchema = z.object({
  leadId: optionId('leadId is required.'),
  employeeEmail: z.string().max(254).nullish(),
  reminderTime: z
    .string({ error: m.reminderTimeRequired })
    .max(40)
    .refine((v) => !Number.isNaN(Date.parse(v)), m.reminderTimeRequired),
  note: z.string().max(NOTES_MAX).nullish(),
  isSent: z.boolean().nullish(),
  createdBy: z.string().max(254).nullish(),
  createdOn: z.string().max(40).nullish(),
});
export type ReminderRequest = z.input<typeof reminderSchema>;

export const reminderAnswerSchema = z.object({
  reminderId: z.number().int(),
  leadId: z.number().int(),
  leadName: z.string(),
  employeeEmail: z.string(),
  reminderTime: z.string(),
  note: z.string(),
  isSent: z.boolean(),
  createdOn: z.string(),
});
export type Reminder = z.infer<typeof reminderAnswerSchema>;
export const reminderCreatedSchema = reminderAnswerSchema.extend({ message: z.string() });

/** GET /api/LeadStatus/leads/{id}/history: one saved note, newest first (DESIGN.md §2). */
export const historyEntrySchema = z.object({
  noteId: z.number().int(),
  leadId: z.number().int(),
  leadStatusId: z.number().int(),
  notes: z.string(),
  callDateTime: z.string().nullable(),
  callStatusId: z.number().int(),
  callStat: z.string().nullable(),
  clientStatusId: z.number().int(),
  clientStat: z.string().nullable(),
  locationId: z.number().int().nullable(),
  locationName: z.string().nullable(),
  configurationId: z.number().int().nullable(),
  configurationType: z.string().nullable(),
  createdBy: z.string(),
  createdOn: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
