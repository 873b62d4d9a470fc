import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { BoardColumn } from '../lib/columns';

interface ColumnTabsProps {
  columns: readonly BoardColumn[];
  /** The sideways-scrolling row of columns; each column is a child with `data-column`. */
  scroller: RefObject<HTMLDivElement | null>;
}

const columnElements = (scroller: HTMLElement) => [
  ...scroller.querySelectorAll<HTMLElement>(':scope > [data-column]'),
];

/** The column whose left edge is nearest the scroller's: the one a phone shows. */
function columnInView(scroller: HTMLElement): number {
  const left = scroller.getBoundingClientRect().left;
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  columnElements(scroller).forEach((el, index) => {
    const distance = Math.abs(el.getBoundingClientRect().left - left);
    if (distance < bestDistance) [best, bestDistance] = [index, distance];
  });
  return best;
}

const smooth = () =>
  window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? ('auto' as const) : ('smooth' as const);

/**
 * The phone board's row of column tabs with counts (issue 18): a tap brings that column into
 * view, and the tab of the column in view is highlighted, whether it came by a tap or a swipe.
 */
export function ColumnTabs({ columns, scroller }: ColumnTabsProps) {
  const [active, setActive] = useState(0);
  // The column a tap is scrolling to: the columns passed on the way are not highlighted.
  const target = useRef<number | null>(null);
  const strip = useRef<HTMLUListElement>(null);

  useEffect(() => {
    const row = scroller.current;
    if (!row) return;
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const index = columnInView(row);
        if (target.current !== null && index !== target.current) return;
        target.current = null;
        setActive(index);
      });
    };
    // A finger on the columns takes over from a tap still scrolling.
    const onTouch = () => {
      target.current = null;
    };
    row.addEventListener('scroll', onScroll, { passive: true });
    row.addEventListener('pointerdown', onTouch, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      row.removeEventListener('scroll', onScroll);
      row.removeEventListener('pointerdown', onTouch);
    };
  }, [scroller]);

  useEffect(() => {
    // The highlighted tab stays in sight in its own row.
    const list = strip.current;
    const tab = list?.children[active] as HTMLElement | undefined;
    if (!list || !tab) return;
    const [l, t] = [list.getBoundingClientRect(), tab.getBoundingClientRect()];
    if (t.left < l.left || t.right > l.right)
      list.scrollTo({ left: list.scrollLeft + t.left - l.left - 16, behavior: smooth() });
  }, [active]);

  const show = useCallback(
    (index: number) => {
      const row = scroller.current;
      const column = row && columnElements(row)[index];
      if (!row || !column) return;
      setActive(index);
      target.current = index;
      const left = row.scrollLeft + column.getBoundingClientRect().left - row.getBoundingClientRect().left;
      row.scrollTo({ left, behavior: smooth() });
      // Scrolled down a long column: come back up to the top of the columns, under the tabs.
      const tabsBottom = strip.current?.getBoundingClientRect().bottom ?? 0;
      const rowTop = row.getBoundingClientRect().top;
      if (rowTop < tabsBottom) window.scrollTo({ top: window.scrollY + rowTop - tabsBottom - 8 });
    },
    [scroller],
  );

  return (
    <nav className="column-tabs" aria-label="Columns">
      <ul ref={strip} className="column-tabs-list">
        {columns.map((column, index) => (
          <li key={column.id}>
            <button
              type="button"
              className="column-tab"
              aria-current={index === active ? 'true' : undefined}
              onClick={() => show(index)}
            >
              {column.title}{' '}
              <span className="column-tab-count">
                {column.leads.length}
                <span className="visually-hidden">{column.leads.length === 1 ? ' lead' : ' leads'}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
