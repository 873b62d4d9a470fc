// The Today screen (issue 15), web only. Apart from follow-ups-rules.ts so the board's first
// load does not carry them (they load with Today).

export const todayMessages = {
  title: 'Today',
  overdue: 'Overdue',
  dueToday: 'Due today',
  upcoming: 'Upcoming',
  nothingOverdue: 'Nothing overdue.',
  nothingToday: 'Nothing else due today.',
  nothingUpcoming: 'No follow-ups planned after today. Set one from a lead’s Add Note.',
  done: 'Done',
  notStored: 'This change could not be saved on this device. Please try again.',
  markedDone: (leadName: string) => `Follow-up with ${leadName} marked done.`,
  snooze: 'Snooze',
  snoozeInHour: 'In 1 hour',
  snoozeTomorrow: 'Tomorrow 10:00',
  snoozePick: 'Pick a time…',
  snoozed: (leadName: string, when: string) => `Follow-up with ${leadName} moved to ${when}.`,
  snoozeTimeNeeded: 'Pick a time in the future.',
} as const;
