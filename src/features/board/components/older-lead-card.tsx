import type { DragEvent } from 'react';
import { Link } from 'react-router-dom';
import type { CallStatusOption, ClientStatusOption } from '../../../../contract/options';
import { syncMessages } from '../../../../contract/sync';
import { leadStoryPath } from '../../../config/paths';
import type { CachedLead } from '../../../lib/db';
import type { OlderNote } from '../hooks/use-older-board-actions';
import { telLink } from '../lib/columns';
import { MoveToMenu } from './move-to-menu';
import { OlderNoteForm } from './older-note-form';

/** The data type a dragged older-board card carries: its lead id. */
export const OLDER_DRAG_TYPE = 'application/x-leadnest-lead';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

interface Props {
  lead: CachedLead;
  notesOpen: boolean;
  onToggleNotes: () => void;
  moveTargets: readonly { key: string; title: string }[];
  onMove: (key: string) => void;
  callStatuses: readonly CallStatusOption[];
  clientStatuses: readonly ClientStatusOption[];
  lastSaved: string | null;
  onSaveNote: (note: OlderNote) => Promise<void>;
}

/** One lead on the older board (spec §2), dragged natively between columns. */
export function OlderLeadCard({ lead, notesOpen, onToggleNotes, moveTargets, onMove, ...note }: Props) {
  const phone = lead.phoneNo || lead.contactNo;
  const location = lead.locationName || lead.location;
  const configuration = lead.configuration || lead.interestedIn;
  const onDragStart = (event: DragEvent<HTMLElement>) => {
    event.dataTransfer.setData(OLDER_DRAG_TYPE, String(lead.leadID));
    // Some browsers start no drag without a text/plain payload.
    event.dataTransfer.setData('text/plain', lead.name);
    event.dataTransfer.effectAllowed = 'move';
  };
  const details: [string, string][] = [
    ['Email', lead.email],
    ['Phone', phone],
    ['Location', location],
    ['Configuration', configuration],
    ['Assigned', lead.assignedDate ? dateFormat.format(new Date(lead.assignedDate)) : ''],
  ];
  return (
    <article
      className="lead-card older-card"
      draggable
      onDragStart={onDragStart}
      data-pending={lead.pendingCount > 0}
      aria-label={lead.name}
    >
      <h3 className="lead-name">
        {lead.leadID > 0 ? (
          // Not draggable itself: a drag that starts on the name moves the card, not the link.
          <Link className="lead-link" to={leadStoryPath(lead.leadID)} draggable={false}>
            {lead.name}
          </Link>
        ) : (
          lead.name
        )}
      </h3>
      {lead.pendingCount > 0 ? (
        <span className="pending-mark" role="status">
          {syncMessages.pending}
        </span>
      ) : null}
      <dl className="older-details">
        {details
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <div className="lead-actions">
        {phone ? (
          <a
            className="button button-secondary card-action"
            href={telLink(phone)}
            aria-label={`Call ${lead.name}`}
          >
            Call
          </a>
        ) : null}
        <button
          type="button"
          className="button button-primary card-action"
          aria-expanded={notesOpen}
          aria-label={`Notes for ${lead.name}`}
          onClick={onToggleNotes}
        >
          Notes
        </button>
        <MoveToMenu
          leadName={lead.name}
          targets={moveTargets.map((t) => t.title)}
          onMove={(title) => onMove(moveTargets.find((t) => t.title === title)!.key)}
        />
      </div>
      {notesOpen ? (
        <OlderNoteForm
          leadName={lead.name}
          callStatuses={note.callStatuses}
          clientStatuses={note.clientStatuses}
          lastSaved={note.lastSaved}
          onSave={note.onSaveNote}
        />
      ) : null}
    </article>
  );
}
