import { Link } from 'react-router-dom';
import { followUpLeadPath } from '../../../../contract/follow-ups-rules';
import { syncMessages } from '../../../../contract/sync';
import { todayMessages as t } from '../../../../contract/today-messages';
import { ContactLinks } from '../../board/components/contact-links';
import { type FollowUpItem, whenLabel } from '../lib/follow-ups';

interface FollowUpRowProps {
  item: FollowUpItem;
  /** The lead's phone: the stored reminder's, or the cached lead's for one set on this device. */
  phone: string;
  overdue: boolean;
  now: number;
  onContact: (leadId: number) => void;
  onDone: () => void;
  children: React.ReactNode;
}

/** One follow-up in Today: when, who, the note, and what to do about it. */
export function FollowUpRow({ item, phone, overdue, now, onContact, onDone, children }: FollowUpRowProps) {
  return (
    <li
      className="follow-up"
      data-overdue={overdue}
      aria-label={`${item.leadName}, ${whenLabel(item.reminderTime, now)}`}
    >
      <div className="follow-up-head">
        <time className="follow-up-time" dateTime={item.reminderTime}>
          {whenLabel(item.reminderTime, now)}
        </time>
        <h3 className="follow-up-lead">{item.leadName}</h3>
        {item.waiting ? <span className="pending-mark">{syncMessages.pending}</span> : null}
      </div>
      {item.note ? <p className="follow-up-note">{item.note}</p> : null}
      <div className="lead-actions">
        <ContactLinks name={item.leadName} phone={phone} onContact={() => onContact(item.leadId)} />
        <Link
          className="button button-secondary card-action"
          to={followUpLeadPath(item.leadId)}
          aria-label={`Add Note for ${item.leadName}`}
        >
          Add Note
        </Link>
        <button
          type="button"
          className="button button-primary card-action"
          aria-label={`${t.done}: ${item.leadName}`}
          onClick={onDone}
        >
          {t.done}
        </button>
        {children}
      </div>
    </li>
  );
}
