import { messages } from './messages';

// The parts of the lead-status contract the employee board needs on the phone, kept free of zod
// so the board's bundle stays within its budget (issue 7). contract/lead-status.ts holds the zod
// schemas the server validates with and re-exports these.

const m = messages.board;

export const NOTES_MAX = 4000;

// Sentences the spec does not word; kept beside the payloads they belong to.
export const leadStatusMessages = {
  leadNotFound: 'Lead not found.',
  unknownClientStatus: 'Unknown client status.',
  unknownCallStatus: 'Unknown call status.',
  unknownLocation: 'Unknown location.',
  unknownConfiguration: 'Unknown configuration.',
  leadIdMismatch: 'The leadId in the body does not match the lead in the path.',
  moved: (leadName: string, column: string) => `${leadName} moved to ${column}.`,
  firstNoteMoves: (leadName: string, column: string) =>
    `${leadName} has no status yet: saving this note moves the lead to ${column}. Closing leaves it where it is.`,
  historyOffline: 'Earlier notes cannot be loaded while offline.',
  noHistory: 'No notes yet.',
  reminderDue: (leadName: string) => `Reminder: call ${leadName}`,
  noUpcomingReminders: 'No upcoming reminders.',
  notesTooLong: `A note can have at most ${NOTES_MAX} characters.`,
} as const;

/** The /employee Add Note form (spec §2, §5). */
export interface NoteFormValues {
  callStatusId: number | null;
  clientStatusId: number | null;
  locationIds: number[];
  configurationIds: number[];
  description: string;
}
export type NoteFormField = keyof NoteFormValues;

const chosen = (id: number | null) => id != null && Number.isInteger(id) && id > 0;

/** First message per field, the way the note form shows them, in the spec's order (spec §5). */
export function noteFormErrors(values: NoteFormValues): Partial<Record<NoteFormField, string>> {
  const errors: Partial<Record<NoteFormField, string>> = {};
  if (!chosen(values.callStatusId)) errors.callStatusId = m.callStatusRequired;
  if (!chosen(values.clientStatusId)) errors.clientStatusId = m.clientStatusRequired;
  if (values.locationIds.length === 0) errors.locationIds = m.locationRequired;
  if (values.configurationIds.length === 0) errors.configurationIds = m.configurationRequired;
  const description = values.description.trim();
  if (description === '') errors.description = m.descriptionRequired;
  else if (description.length > NOTES_MAX) errors.description = leadStatusMessages.notesTooLong;
  return errors;
}

/** Spec §4: a column name matches a client status by case-insensitive, trimmed comparison. */
export function sameStatusName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
