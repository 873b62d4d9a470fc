import { Bar } from '@nivo/bar';
import { Pie } from '@nivo/pie';
import { useRef } from 'react';
import type { LeadStats } from '../../../../contract/admin';
import { formatCount } from '../lib/format';
import { useElementWidth } from '../lib/use-element-width';

// Loaded on its own (React.lazy in charts-panel.tsx): nivo and d3 never reach the login screen or
// the employee board.

export const CHART_HEIGHT = 250;
const GREEN = '#16a34a';
const RED = '#dc2626';
const BAR = '#0f766e';

const theme = { text: { fontSize: 12, fill: '#374151' }, axis: { ticks: { text: { fontSize: 11 } } } };

function Sized({ children }: { children: (width: number) => React.ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useElementWidth(ref);
  return (
    <div ref={ref} className="chart-canvas">
      {width > 0 ? children(width) : null}
    </div>
  );
}

export function AssignmentPie({ stats }: { stats: LeadStats }) {
  const data = [
    // The counts ride in the legend too: a slice of 3 leads in 1,00,000 is too thin to carry one.
    { id: 'Assigned', label: `Assigned ${formatCount(stats.assigned)}`, value: stats.assigned, color: GREEN },
    {
      id: 'Unassigned',
      label: `Unassigned ${formatCount(stats.unassigned)}`,
      value: stats.unassigned,
      color: RED,
    },
  ];
  return (
    <Sized>
      {(width) => (
        <Pie
          width={width}
          height={CHART_HEIGHT}
          data={data}
          colors={{ datum: 'data.color' }}
          margin={{ top: 16, right: 16, bottom: 40, left: 16 }}
          innerRadius={0.55}
          valueFormat={formatCount}
          // Instant redraws: a count that changes should read as changed, not as a moving shape.
          animate={false}
          padAngle={1}
          cornerRadius={3}
          enableArcLinkLabels={false}
          arcLabelsTextColor="#ffffff"
          arcLabelsSkipAngle={12}
          theme={theme}
          legends={[
            {
              anchor: 'bottom',
              direction: 'row',
              translateY: 34,
              itemWidth: 150,
              itemHeight: 18,
              symbolSize: 12,
              symbolShape: 'circle',
            },
          ]}
          role="img"
        />
      )}
    </Sized>
  );
}

interface BarsProps {
  items: { label: string; count: number }[];
  indexLabel: string;
}

export function CountBars({ items, indexLabel }: BarsProps) {
  const data = items.map((i) => ({ key: i.label, Leads: i.count }));
  // Long emails and campaign names are shortened under the bar; the tooltip has the full text.
  // Many bars get narrower labels. Each count sits above its bar, so a bar too short to hold it
  // (1 lead beside 12,000) still shows its number.
  const crowded = data.length > 6;
  const max = crowded ? 10 : 14;
  const short = (v: string | number) => {
    const text = String(v);
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  };
  return (
    <Sized>
      {(width) => (
        <Bar
          width={width}
          height={CHART_HEIGHT}
          data={data}
          keys={['Leads']}
          indexBy="key"
          colors={[BAR]}
          margin={{ top: 22, right: 12, bottom: 64, left: 60 }}
          padding={0.3}
          animate={false}
          borderRadius={3}
          valueFormat={formatCount}
          enableLabel={false}
          // Only where each bar has room for its number (1,00,000 is ~40 px wide); else the tooltip.
          enableTotals={(width - 72) / data.length >= 44}
          totalsOffset={6}
          axisBottom={{ tickRotation: data.length > 3 ? -35 : 0, format: short }}
          axisLeft={{ tickValues: 5, format: (v) => (Number.isInteger(v) ? formatCount(Number(v)) : '') }}
          theme={theme}
          role="img"
          ariaLabel={indexLabel}
        />
      )}
    </Sized>
  );
}
