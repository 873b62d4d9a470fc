// The outbox protocol between the offline board and the API (DESIGN.md §5).

/** Each outbox row's id travels in this header; the server answers a resend with the first answer. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer that was replayed from the idempotency store rather than computed again. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long the server keeps a key's answer; an outbox row older than this may run twice. */
export const IDEMPOTENCY_TTL_HOURS = 24;
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

// 'reminder-update': PUT /api/LeadStatus/reminders/{id} (done or snooze, contract/follow-ups.ts).
export const outboxKinds = ['status', 'note', 'reminder', 'lead', 'reminder-update'] as const;
export type OutboxKind = (typeof outboxKinds)[number];

// Sentences the spec does not word.
export const syncMessages = {
  keyInFlight: 'A request with this Idempotency-Key is still being processed',
  keyReused: 'This Idempotency-Key was already used for a different request.',
  keyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
  waiting: (n: number) => (n === 1 ? '1 change waiting to sync' : `${n} changes waiting to sync`),
  needsAttention: 'Needs attention',
  signInAgain: 'Sign in again to sync your changes.',
  logoutWithPending: (n: number) =>
    `${n === 1 ? '1 change has' : `${n} changes have`} not reached the server yet. They stay on this device and sync after you sign in again. Log out anyway?`,
  offline: 'You are offline. Changes are saved on this device.',
  pending: 'Waiting to sync',
  savedOffline: 'Saved on this device. It will sync when you are back online.',
  synced: (n: number) => (n === 1 ? '1 offline change synced.' : `${n} offline changes synced.`),
  storageUnavailable:
    'This browser cannot store data on the device, so the board cannot open here. Try another browser.',
  retry: 'Retry',
  discard: 'Discard',
  edit: 'Edit',
} as const;
