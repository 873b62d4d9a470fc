import { leadStatusMessages } from '../../../../contract/lead-status-rules';
import { syncMessages } from '../../../../contract/sync';

export interface UpcomingReminder {
  key: string;
  leadName: string;
  reminderTime: string;
  note: string;
  waiting: boolean;
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  });

/** DESIGN.md §6: upcoming reminders are listed on the board, soonest first. */
export function UpcomingReminders({ reminders }: { reminders: readonly UpcomingReminder[] }) {
  return (
    <section className="reminders-panel" aria-labelledby="upcoming-reminders-title">
      <h2 id="upcoming-reminders-title" className="panel-title">
        Upcoming reminders
      </h2>
      {reminders.length === 0 ? (
        <p className="muted">{leadStatusMessages.noUpcomingReminders}</p>
      ) : (
        <ul className="reminder-list">
          {reminders.map((r) => (
            <li key={r.key} className="reminder-item">
              <time dateTime={r.reminderTime}>{when(r.reminderTime)}</time>
              <span className="reminder-lead">{r.leadName}</span>
              {r.note ? <span className="muted">{r.note}</span> : null}
              {r.waiting ? <span className="pending-mark">{syncMessages.pending}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
