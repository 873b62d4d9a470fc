import type { TimelineEvent, TimelinePerson } from '../../../../contract/lead-timeline';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : when.format(time);
}

const FIELD_LABELS: Record<string, string> = {
  name: 'name',
  email: 'email',
  configuration: 'configuration',
  interestedIn: 'interested in',
  siteVisit: 'campaign',
  location: 'location',
  visitDateTime: 'visit date',
};

const who = (p: TimelinePerson | null) => p?.email || 'someone no longer here';

/** One line saying what happened, in the product's words; null for a type this client does not know. */
export function describeEvent(e: TimelineEvent): { title: string; detail?: string } | null {
  switch (e.type) {
    case 'created':
      return { title: e.by ? `Added by ${e.by.email}` : 'Added' };
    case 'imported':
      return { title: `Imported from ${e.fileName}`, detail: e.by ? `Uploaded by ${e.by.email}` : undefined };
    case 'assigned':
      return {
        title: `Assigned to ${who(e.to)}`,
        detail: e.by ? `by ${e.by.email}` : 'when the lead was added',
      };
    case 'reassigned':
      return {
        title: `Moved from ${who(e.from)} to ${who(e.to)}`,
        detail: e.by ? `by ${e.by.email}` : undefined,
      };
    case 'status':
      return {
        title: e.from ? `Status: ${e.from.name} → ${e.to.name}` : `Status set to ${e.to.name}`,
        detail: `by ${e.by.email}`,
      };
    case 'note':
      return {
        title: `Note by ${e.by.email}${e.callStatus ? ` · ${e.callStatus}` : ''}`,
        detail: e.text,
      };
    case 'reminder-set':
      return {
        title: `Follow-up set for ${formatTime(e.remindAt)}`,
        detail: [`by ${e.by.email}`, e.note].filter(Boolean).join(' · '),
      };
    case 'reminder-sent':
      return {
        title: 'Follow-up reminder sent',
        detail: e.channels.length > 0 ? `by ${e.channels.join(' and ')}` : undefined,
      };
    case 'reminder-done':
      return { title: 'Follow-up done', detail: `by ${e.by.email} (was due ${formatTime(e.remindAt)})` };
    case 'name-changed':
      return {
        title: `Name changed from “${e.from}” to “${e.to}”`,
        detail: e.by ? `by ${e.by.email}` : undefined,
      };
    case 'import-filled':
      return {
        title: `Empty fields filled from ${e.fileName}: ${e.fields.map((f) => FIELD_LABELS[f] ?? f).join(', ')}`,
        detail: e.by ? `Uploaded by ${e.by.email}` : undefined,
      };
    default:
      return null;
  }
}
