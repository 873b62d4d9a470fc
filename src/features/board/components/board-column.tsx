import { Draggable, Droppable } from '@hello-pangea/dnd';
import { memo, useMemo, useState } from 'react';
import type { CachedLead } from '../../../lib/db';
import type { FollowUpMark } from '../hooks/use-follow-up-board';
import type { BoardColumn as Column } from '../lib/columns';
import { LeadCard } from './lead-card';

interface BoardColumnProps {
  column: Column;
  /** Names of the status columns, for each card's Move to… menu. */
  statusColumns: readonly string[];
  onMove: (lead: CachedLead, column: string) => void;
  onAddNote: (lead: CachedLead) => void;
  /** Each lead's next follow-up, for its card. */
  followUps: ReadonlyMap<number, FollowUpMark>;
}

// Drawing every card does not scale: with 2,000 leads a reload took 7–8 s to its first card
// (npm run bench:web, issue 7). Each column draws its newest cards, and more on request.
const CARDS_AT_FIRST = 30;
const CARDS_PER_STEP = 60;

export function BoardColumn({ column, statusColumns, onMove, onAddNote, followUps }: BoardColumnProps) {
  const [shown, setShown] = useState(CARDS_AT_FIRST);
  const visible = useMemo(() => column.leads.slice(0, shown), [column.leads, shown]);
  const hidden = column.leads.length - visible.length;
  const headingId = `column-${column.id.replace(/\W+/g, '-').toLowerCase()}`;
  const targets = statusColumns.filter((c) => c !== column.title);
  return (
    <section
      className="board-column"
      data-column={column.id}
      aria-labelledby={`${headingId} ${headingId}-count`}
    >
      <header className="board-column-header">
        <h2 id={headingId} className="board-column-title">
          {column.title}
        </h2>
        <span className="count-badge" id={`${headingId}-count`}>
          {column.leads.length}
          <span className="visually-hidden">{column.leads.length === 1 ? ' lead' : ' leads'}</span>
        </span>
      </header>
      {/* New Leads is where leads start, not a place to move one back to (spec §4). */}
      <Droppable droppableId={column.id} isDropDisabled={column.clientStatusId === null}>
        {(drop, dropState) => (
          <div
            ref={drop.innerRef}
            {...drop.droppableProps}
            className="board-column-cards"
            data-drop-target={dropState.isDraggingOver}
          >
            <ColumnCards
              leads={visible}
              targets={targets}
              onMove={onMove}
              onAddNote={onAddNote}
              followUps={followUps}
            />
            {drop.placeholder}
            {hidden > 0 ? (
              <button
                type="button"
                className="button button-secondary show-more-cards"
                onClick={() => setShown((n) => n + CARDS_PER_STEP)}
              >
                {hidden <= CARDS_PER_STEP
                  ? `Show ${hidden} more`
                  : `Show ${CARDS_PER_STEP} more (${hidden.toLocaleString()} not shown)`}
              </button>
            ) : null}
            {column.leads.length === 0 ? <p className="column-empty muted">No leads here yet.</p> : null}
          </div>
        )}
      </Droppable>
    </section>
  );
}

interface ColumnCardsProps {
  leads: readonly CachedLead[];
  targets: readonly string[];
  onMove: (lead: CachedLead, column: string) => void;
  onAddNote: (lead: CachedLead) => void;
  followUps: ReadonlyMap<number, FollowUpMark>;
}

const sameItems = <T,>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * The cards of one column. Memoised (the pattern @hello-pangea/dnd recommends), so a refresh
 * or a drag that leaves a column's leads as they were does not re-render its cards; useBoardData
 * keeps each unchanged lead the same object.
 */
const ColumnCards = memo(
  function ColumnCards({ leads, targets, onMove, onAddNote, followUps }: ColumnCardsProps) {
    return leads.map((lead, index) => (
      // The handle is a real button, so it must not count as an interactive child that blocks dragging.
      <Draggable
        key={lead.leadID}
        draggableId={String(lead.leadID)}
        index={index}
        disableInteractiveElementBlocking
      >
        {(drag, dragState) => (
          <LeadCard
            lead={lead}
            drag={drag}
            dragging={dragState.isDragging}
            moveTargets={targets}
            onMove={(target) => onMove(lead, target)}
            onAddNote={() => onAddNote(lead)}
            followUp={followUps.get(lead.leadID)}
          />
        )}
      </Draggable>
    ));
  },
  (before, after) =>
    sameItems(before.leads, after.leads) &&
    sameItems(before.targets, after.targets) &&
    before.onMove === after.onMove &&
    before.onAddNote === after.onAddNote &&
    before.followUps === after.followUps,
);
