import { Bar } from '@nivo/bar';
import { useEffect, useRef, useState } from 'react';
import type { EmployeeActivity } from '../../../../contract/manager';

// Loaded on its own (React.lazy in manager-dashboard.tsx): nivo stays out of other screens.

const keys = ['notes', 'moves', 'siteVisits', 'bookings'] as const;
const labels: Record<(typeof keys)[number], string> = {
  notes: 'Notes',
  moves: 'Moves',
  siteVisits: 'Site visits',
  bookings: 'Bookings',
};

function useWidth(ref: React.RefObject<HTMLDivElement | null>) {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    // jsdom and very old browsers have none: the table carries the same figures.
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Notes, moves, site visits and bookings per employee, side by side. */
export function ActivityChart({ rows }: { rows: EmployeeActivity[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref);
  const data = rows.map((r) => ({
    employee: r.email.split('@')[0]!,
    ...Object.fromEntries(keys.map((k) => [labels[k], r[k]])),
  }));
  const narrow = width < 600;
  return (
    <div
      ref={ref}
      className="manager-chart"
      role="img"
      aria-label="Notes, moves, site visits and bookings per employee"
    >
      {width > 0 ? (
        <Bar
          width={width}
          height={Math.max(260, narrow ? rows.length * 44 + 80 : 300)}
          data={data}
          keys={keys.map((k) => labels[k])}
          indexBy="employee"
          groupMode="grouped"
          layout={narrow ? 'horizontal' : 'vertical'}
          margin={
            narrow
              ? { top: 8, right: 16, bottom: 64, left: 96 }
              : { top: 16, right: 16, bottom: 72, left: 48 }
          }
          colors={['#0f766e', '#3b82f6', '#f59e0b', '#16a34a']}
          animate={false}
          enableLabel={false}
          axisBottom={narrow ? { tickSize: 0 } : { tickSize: 0, tickRotation: rows.length > 6 ? -30 : 0 }}
          axisLeft={{ tickSize: 0 }}
          legends={[
            {
              dataFrom: 'keys',
              anchor: 'bottom',
              direction: 'row',
              translateY: narrow ? 56 : 64,
              itemWidth: narrow ? 80 : 100,
              itemHeight: 18,
              symbolSize: 12,
            },
          ]}
        />
      ) : null}
    </div>
  );
}
