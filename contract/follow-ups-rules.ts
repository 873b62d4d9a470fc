// The parts of the follow-up contract (contract/follow-ups.ts) that the board and the service
// worker need, kept free of zod so the board's bundle stays within its budget (issue 7), the way
// lead-status-rules.ts does for notes.

/** The board's query parameter that opens a lead's Add Note modal (notification "Open"). */
export const OPEN_LEAD_PARAM = 'lead';
export const followUpLeadPath = (leadId: number) => `/employee?${OPEN_LEAD_PARAM}=${leadId}`;

/** Notification and mail wording, shared by the server (mail) and the service worker. */
export const followUpMessages = {
  notificationTitle: (leadName: string) => `Follow up: ${leadName}`,
  notificationBodyEmpty: 'Time to follow up with this lead.',
  call: 'Call',
  open: 'Open',
  mailSubject: (leadName: string) => `Reminder: follow up with ${leadName}`,
  reminderNotFound: 'Reminder not found.',
  updateFailed: 'Failed to update the reminder.',
} as const;

/** Follow-ups on the board: each card's next one and the overdue banner (web only). */
export const boardFollowUpMessages = {
  nextFollowUp: (when: string) => `Follow up ${when}`,
  overdueFollowUp: (when: string) => `Overdue: follow up ${when}`,
  overdueBanner: (n: number) => (n === 1 ? '1 follow-up is overdue.' : `${n} follow-ups are overdue.`),
  openToday: 'Open Today',
  leadNotOnBoard: 'This lead is not on your board any more.',
} as const;

/** The service worker's message to an open window: show this address (a tapped reminder). */
export const OPEN_LEAD_MESSAGE = 'OPEN_LEAD';
