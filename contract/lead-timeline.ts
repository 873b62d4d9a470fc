import { z } from 'zod';
import type { Lead } from './leads';

// GET /api/Leads/{id}/timeline (issue 17): a lead's whole story, oldest first. Every event has
// `type` and `at` (ISO time); the rest depends on the type. New types may be added later, so a
// client shows an event it does not know as nothing rather than failing.

/** Someone who did something. `registrationId` is null when the account no longer exists. */
export const timelinePersonSchema = z.object({
  registrationId: z.number().int().nullable(),
  email: z.string(),
});
export type TimelinePerson = z.infer<typeof timelinePersonSchema>;

const option = z.object({ id: z.number().int(), name: z.string() });

const at = z.string();

export const timelineEventSchema = z.discriminatedUnion('type', [
  /** Added by hand (board or dashboard); `by` null for rows from before authors were kept. */
  z.object({ type: z.literal('created'), at, by: timelinePersonSchema.nullable() }),
  /** Inserted by a spreadsheet upload (the import history's entry). */
  z.object({
    type: z.literal('imported'),
    at,
    by: timelinePersonSchema.nullable(),
    importId: z.number().int(),
    fileName: z.string(),
  }),
  /**
   * First given to an employee. `by` null: assigned as the lead was added or imported
   * (auto-assign, or an employee's own lead), or by an assignment made before they were recorded.
   */
  z.object({
    type: z.literal('assigned'),
    at,
    to: timelinePersonSchema,
    by: timelinePersonSchema.nullable(),
  }),
  /** Moved from one employee to another (Employees screen). */
  z.object({
    type: z.literal('reassigned'),
    at,
    from: timelinePersonSchema.nullable(),
    to: timelinePersonSchema.nullable(),
    by: timelinePersonSchema.nullable(),
  }),
  /** A change of client status; `from` null for the lead's first status. */
  z.object({
    type: z.literal('status'),
    at,
    from: option.nullable(),
    to: option,
    by: timelinePersonSchema,
  }),
  /** A note logged with a call status (spec §4). */
  z.object({
    type: z.literal('note'),
    at,
    noteId: z.number().int(),
    text: z.string(),
    callStatus: z.string().nullable(),
    clientStatus: z.string().nullable(),
    by: timelinePersonSchema,
  }),
  /** A follow-up reminder was set for `remindAt`. */
  z.object({
    type: z.literal('reminder-set'),
    at,
    reminderId: z.number().int(),
    remindAt: z.string(),
    note: z.string(),
    by: timelinePersonSchema,
    for: timelinePersonSchema,
  }),
  /** The reminder went out (push and/or mail). */
  z.object({
    type: z.literal('reminder-sent'),
    at,
    reminderId: z.number().int(),
    remindAt: z.string(),
    channels: z.array(z.string()),
  }),
  /** The reminder was marked done by the employee it was for. */
  z.object({
    type: z.literal('reminder-done'),
    at,
    reminderId: z.number().int(),
    remindAt: z.string(),
    by: timelinePersonSchema,
  }),
  /** The lead's name was edited on the Leads List. */
  z.object({
    type: z.literal('name-changed'),
    at,
    from: z.string(),
    to: z.string(),
    by: timelinePersonSchema.nullable(),
  }),
  /**
   * An import found this lead's phone and, told to update duplicates, filled fields that were
   * empty (issue 19). `fields` are the lead JSON's names (email, location, visitDateTime, …).
   */
  z.object({
    type: z.literal('import-filled'),
    at,
    by: timelinePersonSchema.nullable(),
    importId: z.number().int(),
    fileName: z.string(),
    fields: z.array(z.string()),
  }),
]);
export type TimelineEvent = z.infer<typeof timelineEventSchema>;
export type TimelineEventType = TimelineEvent['type'];

/** The next open follow-up (earliest not done; may be overdue). */
export const nextFollowUpSchema = z.object({
  reminderId: z.number().int(),
  at: z.string(),
  note: z.string(),
});

/** The answer without the lead itself (the route adds the lead JSON of DESIGN.md §2). */
export const leadTimelineBaseSchema = z.object({
  holder: timelinePersonSchema.nullable(),
  nextFollowUp: nextFollowUpSchema.nullable(),
  events: z.array(timelineEventSchema),
});
export type LeadTimeline = z.infer<typeof leadTimelineBaseSchema> & { lead: Lead };

/**
 * Events at the same instant, in the order they happen: a lead is added before it is assigned,
 * a first note's status change before the note.
 */
export const TIMELINE_ORDER: readonly TimelineEventType[] = [
  'created',
  'imported',
  'assigned',
  'reassigned',
  'name-changed',
  'import-filled',
  'status',
  'note',
  'reminder-set',
  'reminder-sent',
  'reminder-done',
];

export const timelineParamsSchema = z.object({ leadID: z.coerce.number().int().positive() });
