import { type DragEvent, type ReactNode, useState } from 'react';
import type { OlderColumn } from '../lib/older-columns';
import { OLDER_DRAG_TYPE } from './older-lead-card';

interface Props {
  column: OlderColumn;
  onDropLead: (leadId: number) => void;
  children: ReactNode;
}

/** A column of the older board; a card dropped here (native drag and drop, spec §2) moves into it. */
export function OlderBoardColumn({ column, onDropLead, children }: Props) {
  const [over, setOver] = useState(false);
  const headingId = `older-${column.key.replace(/\W+/g, '-').toLowerCase()}`;
  const accepts = (event: DragEvent) => event.dataTransfer.types.includes(OLDER_DRAG_TYPE);
  return (
    <section className="board-column" aria-labelledby={`${headingId} ${headingId}-count`}>
      <header className="board-column-header">
        <h2 id={headingId} className="board-column-title">
          {column.title}
        </h2>
        <span className="count-badge" id={`${headingId}-count`}>
          {column.leads.length}
          <span className="visually-hidden">{column.leads.length === 1 ? ' lead' : ' leads'}</span>
        </span>
      </header>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a pointer drop zone; keyboard users move cards with each card's Move to… menu. */}
      <div
        className="board-column-cards"
        data-drop-target={over}
        onDragOver={(event) => {
          if (!accepts(event)) return;
          // Without preventDefault the browser refuses the drop.
          event.preventDefault();
          event.dataTransfer.dropEffect = 'move';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          setOver(false);
          const id = Number(event.dataTransfer.getData(OLDER_DRAG_TYPE));
          if (!Number.isInteger(id) || id === 0) return;
          event.preventDefault();
          onDropLead(id);
        }}
      >
        {children}
        {column.leads.length === 0 ? <p className="column-empty muted">No leads here yet.</p> : null}
      </div>
    </section>
  );
}
