interface PaginationProps {
  page: number;
  pages: number;
  onSelect: (page: number) => void;
}

/**
 * Page numbers around the current one plus the first and last: 100,000 leads make 20,000 pages,
 * and a row of 20,000 buttons helps nobody.
 */
export function pageWindow(page: number, pages: number): (number | 'gap')[] {
  const wanted = new Set([1, pages, page - 2, page - 1, page, page + 1, page + 2]);
  const shown = [...wanted].filter((p) => p >= 1 && p <= pages).sort((a, b) => a - b);
  const result: (number | 'gap')[] = [];
  for (const p of shown) {
    const last = result.at(-1);
    if (typeof last === 'number' && p - last > 1) result.push('gap');
    result.push(p);
  }
  return result;
}

export function Pagination({ page, pages, onSelect }: PaginationProps) {
  if (pages < 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <ul>
        {pageWindow(page, pages).map((p, i) =>
          p === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity but its place.
            <li key={`gap-${i}`} className="pagination-gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p}>
              <button
                type="button"
                className="pagination-page"
                aria-current={p === page ? 'page' : undefined}
                aria-label={`Page ${p}`}
                onClick={() => onSelect(p)}
              >
                {p}
              </button>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
