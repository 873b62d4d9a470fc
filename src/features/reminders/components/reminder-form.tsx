import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { messages } from '../../../../contract/messages';
import { readSession } from '../../../lib/session';
import { DAY_MS, HOUR_MS, later, toLocalInput, tomorrowAtTen } from '../lib/follow-ups';

interface ReminderFormProps {
  /** Spec §2: Set Reminder works only after a note was saved for this lead in this session. */
  enabled: boolean;
  onSet: (reminder: { reminderTime: string; employeeEmail: string }) => Promise<void> | void;
}

const TOAST = { duration: 2000 };

/** The times people pick most, one tap each, beside the full date-and-time input (issue 15). */
const quickPicks: { label: string; at: (now: number) => Date }[] = [
  { label: 'in 1 h', at: (now) => later(now, HOUR_MS) },
  { label: 'tomorrow 10:00', at: tomorrowAtTen },
  { label: 'in 3 days', at: (now) => later(now, 3 * DAY_MS) },
];

/** Asks once, on the user's own tap, so the browser lets the page show reminder notifications. */
function askNotificationPermission(): void {
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') {
    void Notification.requestPermission().catch(() => undefined);
  }
}

export function ReminderForm({ enabled, onSet }: ReminderFormProps) {
  const id = useId();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);

  async function setReminder() {
    const time = value ? new Date(value) : null;
    if (!time || Number.isNaN(time.getTime())) {
      toast.error(messages.board.reminderTimeRequired, TOAST);
      return;
    }
    // Spec §5: the reminder is filed under the email kept at sign-in.
    const employeeEmail = readSession()?.email;
    if (!employeeEmail) {
      toast.error(messages.board.reminderNoEmail, TOAST);
      return;
    }
    askNotificationPermission();
    setBusy(true);
    try {
      await onSet({ reminderTime: time.toISOString(), employeeEmail });
      setValue('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="reminder-form">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-time`}>
          Reminder
        </label>
        <input
          id={`${id}-time`}
          className="input"
          type="datetime-local"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <fieldset className="quick-picks">
          <legend className="visually-hidden">Quick picks</legend>
          {quickPicks.map((pick) => (
            <button
              key={pick.label}
              type="button"
              className="quick-pick"
              onClick={() => setValue(toLocalInput(pick.at(Date.now())))}
            >
              {pick.label}
            </button>
          ))}
        </fieldset>
      </div>
      <button
        type="button"
        className="button button-secondary"
        disabled={!enabled || busy}
        title={enabled ? undefined : 'Save a note first'}
        onClick={() => void setReminder()}
      >
        Set Reminder
      </button>
    </div>
  );
}
