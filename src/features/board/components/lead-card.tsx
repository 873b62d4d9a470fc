import type { DraggableProvided } from '@hello-pangea/dnd';
import { Link } from 'react-router-dom';
import { syncMessages } from '../../../../contract/sync';
import { leadStoryPath } from '../../../config/paths';
import type { CachedLead } from '../../../lib/db';
import { rememberContact } from '../../reminders/lib/post-call';
import type { FollowUpMark } from '../hooks/use-follow-up-board';
import { ContactLinks } from './contact-links';
import { MoveToMenu } from './move-to-menu';

interface LeadCardProps {
  lead: CachedLead;
  drag: DraggableProvided;
  dragging: boolean;
  moveTargets: readonly string[];
  onMove: (column: string) => void;
  onAddNote: () => void;
  /** Its next follow-up ("Follow up today 16:30"), red when overdue. */
  followUp?: FollowUpMark;
}

/** One lead on the board (spec §2): who, how to reach them, and what to do next. */
export function LeadCard({ lead, drag, dragging, moveTargets, onMove, onAddNote, followUp }: LeadCardProps) {
  const phone = lead.phoneNo || lead.contactNo;
  const location = lead.locationName || lead.location;
  const configuration = lead.configuration || lead.interestedIn;
  return (
    <article
      ref={drag.innerRef}
      {...drag.draggableProps}
      className="lead-card"
      data-dragging={dragging}
      data-pending={lead.pendingCount > 0}
      aria-label={lead.name}
    >
      <div className="lead-card-top">
        <h3 className="lead-name">
          {lead.leadID > 0 ? (
            <Link className="lead-link" to={leadStoryPath(lead.leadID)}>
              {lead.name}
            </Link>
          ) : (
            lead.name
          )}
        </h3>
        <button
          type="button"
          {...drag.dragHandleProps}
          className="drag-handle"
          aria-label={`Drag ${lead.name}`}
          title="Drag to another column"
        >
          <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
            <circle cx="7" cy="5" r="1.6" />
            <circle cx="13" cy="5" r="1.6" />
            <circle cx="7" cy="10" r="1.6" />
            <circle cx="13" cy="10" r="1.6" />
            <circle cx="7" cy="15" r="1.6" />
            <circle cx="13" cy="15" r="1.6" />
          </svg>
        </button>
      </div>
      <div className="lead-badges">
        {location ? (
          <span className="badge badge-location">
            <span className="visually-hidden">Location: </span>
            {location}
          </span>
        ) : null}
        {configuration ? (
          <span className="badge badge-configuration">
            <span className="visually-hidden">Configuration: </span>
            {configuration}
          </span>
        ) : null}
        {lead.pendingCount > 0 ? (
          <span className="pending-mark" role="status">
            {syncMessages.pending}
          </span>
        ) : null}
        {lead.attention ? <span className="attention-mark">{syncMessages.needsAttention}</span> : null}
      </div>
      <dl className="lead-details">
        {lead.email ? (
          <div>
            <dt className="visually-hidden">Email</dt>
            <dd>{lead.email}</dd>
          </div>
        ) : null}
        {phone ? (
          <div>
            <dt className="visually-hidden">Phone</dt>
            <dd>{phone}</dd>
          </div>
        ) : null}
      </dl>
      {followUp ? (
        <p className="follow-up-mark" data-overdue={followUp.overdue}>
          {followUp.text}
        </p>
      ) : null}
      <div className="lead-actions">
        <ContactLinks name={lead.name} phone={phone} onContact={() => rememberContact(lead.leadID)} />
        <button
          type="button"
          className="button button-primary card-action"
          onClick={onAddNote}
          aria-label={`Add Note for ${lead.name}`}
        >
          Add Note
        </button>
        <MoveToMenu leadName={lead.name} targets={moveTargets} onMove={onMove} />
      </div>
    </article>
  );
}
