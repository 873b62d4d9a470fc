// Follow-ups that remind (issue 15, DESIGN.md §6): Web Push subscriptions, reminder done/snooze,
// the Today lists, and the push message the service worker receives. Architecture and the
// delivery rules: docs/follow-ups.md.
import { z } from 'zod';
import { reminderAnswerSchema } from './lead-status';
import { messages } from './messages';

// Zod-free parts live in follow-ups-rules.ts (the board and the service worker import them
// without pulling zod into their bundles, like lead-status-rules.ts).
export { followUpLeadPath, followUpMessages, OPEN_LEAD_PARAM } from './follow-ups-rules';

// ---- Web Push subscriptions: /api/push/* (any signed-in user) ----

/** GET /api/push/public-key: the VAPID public key (base64url), for `pushManager.subscribe`. */
export const pushPublicKeyAnswerSchema = z.object({ publicKey: z.string() });
export type PushPublicKeyAnswer = z.infer<typeof pushPublicKeyAnswerSchema>;

const endpoint = z
  .string()
  .max(2048)
  .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), 'endpoint must be an http(s) URL.');

/**
 * POST /api/push/subscriptions: the browser's `PushSubscription.toJSON()` as it comes → 201.
 * Idempotent per endpoint: sending it again answers 201 and stores it once. An endpoint belongs
 * to one device, so subscribing it moves it to the signed-in user (a shared phone whose last
 * user did not sign out stops getting that user's reminders).
 */
export const pushSubscriptionSchema = z.object({
  endpoint,
  expirationTime: z.number().nullish(),
  keys: z.object({
    // P-256 public key (65 bytes) and auth secret (16 bytes), base64url as browsers give them.
    p256dh: z.string().min(1).max(200),
    auth: z.string().min(1).max(100),
  }),
});
export type PushSubscriptionRequest = z.input<typeof pushSubscriptionSchema>;

export const pushSubscriptionAnswerSchema = z.object({ endpoint: z.string() });
export type PushSubscriptionAnswer = z.infer<typeof pushSubscriptionAnswerSchema>;

/** DELETE /api/push/subscriptions with `{endpoint}` → 204 (also when it was not stored). */
export const pushUnsubscribeSchema = z.object({ endpoint: z.string().min(1).max(2048) });
export type PushUnsubscribeRequest = z.input<typeof pushUnsubscribeSchema>;

// ---- Reminders: GET /api/LeadStatus/reminders?status=…, PUT /api/LeadStatus/reminders/{id} ----

/**
 * `due`: time passed and not done (overdue included), soonest first. `upcoming`: time still
 * ahead and not done. `all`: every reminder of the caller, done ones too. No `status` at all
 * answers like `all` (the answer the spec's clients already read, DESIGN.md §2).
 */
export const reminderListStatuses = ['due', 'upcoming', 'all'] as const;
export type ReminderListStatus = (typeof reminderListStatuses)[number];
export const reminderListQuerySchema = z.object({ status: z.enum(reminderListStatuses).optional() });

export const deliveryChannels = ['push', 'mail'] as const;
export type DeliveryChannel = (typeof deliveryChannels)[number];

/**
 * The reminder as every reminder call answers it: the spec's fields, then additions.
 * `reminderTime` is when it fires next (a snooze moves it). `isSent`/`sentAt`/`channels`: when the
 * server delivered it and through which channels; a snooze clears them, since it fires again.
 */
export const followUpSchema = reminderAnswerSchema.extend({
  leadPhone: z.string(),
  isDone: z.boolean(),
  doneAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  channels: z.array(z.enum(deliveryChannels)),
});
export type FollowUp = z.infer<typeof followUpSchema>;
/** POST /api/LeadStatus/add-reminder answers the same reminder plus the spec's `message`. */
export const followUpCreatedSchema = followUpSchema.extend({ message: z.string() });

/** A snooze time: ISO-8601 with a zone (`Z` or `+05:30`), so the server cannot misread it. */
const snoozeTime = z.iso.datetime({ offset: true, error: messages.board.reminderTimeRequired });

/**
 * PUT /api/LeadStatus/reminders/{id}: exactly one of `{done: true}` (`false` reopens it) or
 * `{snoozeUntil}` (moves its time, reopens it and re-arms push and mail) → 200 with the reminder.
 * Another employee's reminder, or one on a deleted lead: 404. A bad time: 400 problem JSON with
 * `errors.snoozeUntil`. A time already past is accepted (an outbox row may arrive late); it is
 * then due at once but, like any late arrival, not pushed (docs/follow-ups.md).
 */
export const reminderUpdateSchema = z
  .object({
    done: z.boolean().optional(),
    snoozeUntil: snoozeTime.optional(),
  })
  .refine((v) => (v.done === undefined) !== (v.snoozeUntil === undefined), {
    path: ['done'],
    message: 'Send either done or snoozeUntil.',
  });
export type ReminderUpdateRequest = z.input<typeof reminderUpdateSchema>;

// ---- The push message (what `event.data.json()` gives the service worker) ----

export const reminderPushSchema = z.object({
  type: z.literal('reminder'),
  reminderId: z.number().int(),
  leadId: z.number().int(),
  leadName: z.string(),
  /** The lead's phone, for the "Call" action (`tel:`). */
  phone: z.string(),
  note: z.string(),
  reminderTime: z.string(),
  /** Same-origin path to open: followUpLeadPath(leadId). */
  url: z.string(),
});
export type ReminderPush = z.infer<typeof reminderPushSchema>;

/** An outbox row of kind 'reminder-update' carries the PUT body plus the reminder it is for. */
export type ReminderUpdateOutboxPayload = ReminderUpdateRequest & { reminderId: number };
