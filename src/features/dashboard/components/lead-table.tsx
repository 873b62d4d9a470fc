// biome-ignore-all lint/a11y/noRedundantRoles: the narrow layout (dashboard.css) draws the rows as
// flex boxes, and Safari then forgets they are a table's rows and cells; each element says its role.
import {
  measureElement,
  observeElementRect,
  useVirtualizer,
  type Virtualizer,
} from '@tanstack/react-virtual';
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
  instance: Virtualizer<HTMLDivElement, HTMLTableRowElement>,
  callback: (rect: { width: number; height: number }) => void,
) {
  return observeElementRect(instance, (rect) =>
    callback({ width: rect.width, height: rect.height || FALLBACK_HEIGHT }),
  );
}

/**
 * A row's height as drawn: long names wrap, and on a phone each lead takes two lines (issue 19).
 * Where nothing is laid out (0 px) the estimate stands, so the window stays one screenful.
 */
function measureRow(
  element: HTMLTableRowElement,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<HTMLDivElement, HTMLTableRowElement>,
) {
  return measureElement(element, entry, instance) || ROW_HEIGHT;
}

/** Stands in for the rows above or below the window, so the scrollbar matches the whole list. */
function Spacer({ height }: { height: number }) {
  return (
    <tr role="row" className="lead-spacer" style={{ height }}>
      <td role="cell" colSpan={7} className="cell-spacer" />
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
  index,
  measure,
  checked,
  taken,
  onToggle,
}: {
  lead: LeadRow;
  index: number;
  measure: (row: HTMLTableRowElement | null) => void;
  checked: boolean;
  taken: boolean;
  onToggle: (id: number) => void;
}) {
  const assigned = lead.assignedTo !== '';
  const className = assigned ? 'lead-row lead-row-assigned' : taken ? 'lead-row lead-row-taken' : 'lead-row';
  return (
    <tr role="row" aria-rowindex={index + 2} className={className} ref={measure} data-index={index}>
      <td role="cell" className="cell-check">
        {/* The label makes the whole cell the tap target, not just the 18 px box. */}
        <label className="check-hit">
          <input
            type="checkbox"
            aria-label={`Select ${lead.name}`}
            checked={checked}
            disabled={assigned}
            onChange={() => onToggle(lead.leadID)}
          />
        </label>
      </td>
      <td role="cell" className="cell-name">
        <Link className="lead-link" to={leadStoryPath(lead.leadID)}>
          {lead.name}
        </Link>
      </td>
      <td role="cell" className="cell-phone">
        {lead.phoneNo}
      </td>
      <td role="cell" className="cell-visit">
        {formatVisit(lead.visitDateTime)}
      </td>
      <td role="cell" className="cell-configuration">
        {lead.configuration}
      </td>
      <td role="cell" className="cell-campaign">
        {lead.siteVisit}
      </td>
      <td role="cell" className="cell-holder">
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
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLTableRowElement>({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    observeElementRect: observeRect,
    measureElement: measureRow,
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
      <table role="table" className="lead-table" aria-rowcount={rows.length + 1}>
        <thead role="rowgroup">
          <tr role="row" aria-rowindex={1}>
            <th role="columnheader" className="cell-check" scope="col">
              <label className="check-hit">
                <input
                  ref={header}
                  type="checkbox"
                  aria-label="Select all unassigned leads"
                  checked={allSelected}
                  disabled={unassignedCount === 0}
                  onChange={onToggleAll}
                />
              </label>
            </th>
            <th role="columnheader" className="cell-name" scope="col">
              Name
            </th>
            <th role="columnheader" className="cell-phone" scope="col">
              Phone No
            </th>
            <th role="columnheader" className="cell-visit" scope="col">
              Visit DateTime
            </th>
            <th role="columnheader" className="cell-configuration" scope="col">
              Configuration
            </th>
            <th role="columnheader" className="cell-campaign" scope="col">
              Site Visit
            </th>
            <th role="columnheader" className="cell-holder" scope="col">
              Assigned To
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {before > 0 ? <Spacer height={before} /> : null}
          {items.map((item) => {
            const lead = rows[item.index]!;
            return (
              <Row
                key={lead.leadID}
                lead={lead}
                index={item.index}
                measure={virtualizer.measureElement}
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
