import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { leadStoryPath } from '../../../config/paths';
import type { LeadRow } from '../api/dashboard-api';
import { formatVisit } from '../lib/format';

const ROW_HEIGHT = 44;
// Until the scroll box has been laid out (or where layout is not measured at all) one screenful.
const FALLBACK_HEIGHT = 600;

/** Measures the scroll box, assuming a screenful while it still measures 0 px high. */
function observeRect(
  instance: Virtualizer<HTMLDivElement, Element>,
  callback: (rect: { width: number; height: number }) => void,
) {
  return observeElementRect(instance, (rect) =>
    callback({ width: rect.width, height: rect.height || FALLBACK_HEIGHT }),
  );
}

/** Stands in for the rows above or below the window, so the scrollbar matches the whole list. */
function Spacer({ height }: { height: number }) {
  return (
    <tr style={{ height }}>
      <td colSpan={7} className="cell-spacer" />
    </tr>
  );
}

interface LeadTableProps {
  rows: LeadRow[];
  selected: ReadonlySet<number>;
  /** Selected leads someone else assigned first (issue 19). */
  taken?: ReadonlySet<number>;
  unassignedCount: number;
  onToggle: (leadId: number) => void;
  onToggleAll: () => void;
}

const Row = memo(function Row({
  lead,
  checked,
  taken,
  onToggle,
}: {
  lead: LeadRow;
  checked: boolean;
  taken: boolean;
  onToggle: (id: number) => void;
}) {
  const assigned = lead.assignedTo !== '';
  const className = assigned ? 'lead-row lead-row-assigned' : taken ? 'lead-row lead-row-taken' : 'lead-row';
  return (
    <tr className={className}>
      <td className="cell-check">
        <input
          type="checkbox"
          aria-label={`Select ${lead.name}`}
          checked={checked}
          disabled={assigned}
          onChange={() => onToggle(lead.leadID)}
        />
      </td>
      <td>
        <Link className="lead-link" to={leadStoryPath(lead.leadID)}>
          {lead.name}
        </Link>
      </td>
      <td>{lead.phoneNo}</td>
      <td>{formatVisit(lead.visitDateTime)}</td>
      <td>{lead.configuration}</td>
      <td>{lead.siteVisit}</td>
      <td>
        {taken ? (
          <span className="lead-taken-mark">Already assigned by someone else</span>
        ) : (
          lead.assignedTo || 'Unassigned'
        )}
      </td>
    </tr>
  );
});

/**
 * Spec §2 lead table. Only the rows in view are in the DOM (about twenty of 100,000), so the
 * table scrolls smoothly at any size; the spacer rows keep the scrollbar true to the full list.
 */
const noneTaken: ReadonlySet<number> = new Set();

export function LeadTable({
  rows,
  selected,
  taken = noneTaken,
  unassignedCount,
  onToggle,
  onToggleAll,
}: LeadTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLInputElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    observeElementRect: observeRect,
  });
  const selectedCount = selected.size;
  const allSelected = unassignedCount > 0 && selectedCount === unassignedCount;

  useEffect(() => {
    if (header.current) header.current.indeterminate = selectedCount > 0 && !allSelected;
  }, [selectedCount, allSelected]);

  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <div ref={scroller} className="lead-table-scroll" tabIndex={-1}>
      <table className="lead-table" aria-rowcount={rows.length + 1}>
        <thead>
          <tr>
            <th className="cell-check" scope="col">
              <input
                ref={header}
                type="checkbox"
                aria-label="Select all unassigned leads"
                checked={allSelected}
                disabled={unassignedCount === 0}
                onChange={onToggleAll}
              />
            </th>
            <th scope="col">Name</th>
            <th scope="col">Phone No</th>
            <th scope="col">Visit DateTime</th>
            <th scope="col">Configuration</th>
            <th scope="col">Site Visit</th>
            <th scope="col">Assigned To</th>
          </tr>
        </thead>
        <tbody>
          {before > 0 ? <Spacer height={before} /> : null}
          {items.map((item) => {
            const lead = rows[item.index]!;
            return (
              <Row
                key={lead.leadID}
                lead={lead}
                checked={selected.has(lead.leadID)}
                taken={taken.has(lead.leadID)}
                onToggle={onToggle}
              />
            );
          })}
          {after > 0 ? <Spacer height={after} /> : null}
        </tbody>
      </table>
    </div>
  );
}
