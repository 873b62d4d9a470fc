import { Bar, type BarCustomLayerProps } from '@nivo/bar';
import { Pie } from '@nivo/pie';
import { useRef } from 'react';
import type { LeadStats } from '../../../../contract/admin';
import { type TickLayout, tickLayout, wrapLabel } from '../lib/chart-labels';
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

// Issue 19: a slice of 1 lead in 500 is under a degree, less than the gap between slices. Each
// non-empty slice is drawn at least this share of the ring; its number stays the real one.
const MIN_SLICE_SHARE = 0.015;

function ChartTooltip({ label, count }: { label: string; count: number }) {
  return (
    <div className="chart-tooltip">
      <span className="chart-tooltip-label">{label}</span>: <strong>{formatCount(count)}</strong>
    </div>
  );
}

export function AssignmentPie({ stats }: { stats: LeadStats }) {
  const total = stats.assigned + stats.unassigned;
  const shown = (count: number) => (count > 0 ? Math.max(count, total * MIN_SLICE_SHARE) : 0);
  const data = [
    // The counts ride in the legend too: a slice of 3 leads in 1,00,000 is too thin to carry one.
    {
      id: 'Assigned',
      label: `Assigned ${formatCount(stats.assigned)}`,
      value: shown(stats.assigned),
      count: stats.assigned,
      color: GREEN,
    },
    {
      id: 'Unassigned',
      label: `Unassigned ${formatCount(stats.unassigned)}`,
      value: shown(stats.unassigned),
      count: stats.unassigned,
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
          arcLabel={(d) => formatCount(d.data.count)}
          tooltip={({ datum }) => <ChartTooltip label={String(datum.id)} count={datum.data.count} />}
          // Instant redraws: a count that changes should read as changed, not as a moving shape.
          animate={false}
          padAngle={0.5}
          cornerRadius={2}
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

type BarRow = { key: string; Leads: number };

const BAR_MARGIN = { top: 22, right: 12, bottom: 64, left: 60 };
// A bar this short (1 lead beside 500 is under a pixel) is drawn this tall, so it can be seen.
const MIN_BAR_PX = 3;

/** A stub under each non-empty bar too short to see; the bar itself still carries the events. */
function MinimumBars({ bars }: BarCustomLayerProps<BarRow>) {
  return (
    <g>
      {bars
        .filter((bar) => Number(bar.data.value) > 0 && bar.height < MIN_BAR_PX)
        .map((bar) => (
          <rect
            key={bar.key}
            x={bar.x}
            y={bar.y + bar.height - MIN_BAR_PX}
            width={bar.width}
            height={MIN_BAR_PX}
            fill={bar.color}
          />
        ))}
    </g>
  );
}

/**
 * An axis label laid out by tickLayout(): wrapped or slanted, shortened only when it must be, and
 * the full text in a <title> — the browser's own tooltip on hover.
 */
interface TickProps {
  x: number;
  y: number;
  value: string | number;
  tickIndex: number;
  layout: TickLayout;
}

function WrappedTick({ x, y, value, tickIndex, layout }: TickProps) {
  const text = String(value);
  const drawn = tickIndex % layout.every === 0;
  const lines = drawn ? wrapLabel(text, layout.maxChars, layout.maxLines) : [];
  return (
    <g transform={`translate(${x},${y})`} className="chart-tick">
      <title>{text}</title>
      <line x1={0} x2={0} y1={0} y2={5} stroke="#6b7280" strokeWidth={1} />
      {layout.rotation === 0 ? (
        <text textAnchor="middle" fontSize={11} fill="#374151">
          {lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one label, fixed in order.
            <tspan key={i} x={0} y={18 + i * 13}>
              {line}
            </tspan>
          ))}
        </text>
      ) : (
        <text
          textAnchor="end"
          dominantBaseline="central"
          fontSize={11}
          fill="#374151"
          transform={`translate(0,10) rotate(${layout.rotation})`}
        >
          {lines[0]}
        </text>
      )}
    </g>
  );
}

export function CountBars({ items, indexLabel }: BarsProps) {
  const data: BarRow[] = items.map((i) => ({ key: i.label, Leads: i.count }));
  return (
    <Sized>
      {(width) => {
        const band = (width - BAR_MARGIN.left - BAR_MARGIN.right) / Math.max(1, data.length);
        const layout = tickLayout(band, BAR_MARGIN.bottom);
        return (
          <Bar
            width={width}
            height={CHART_HEIGHT}
            data={data}
            keys={['Leads']}
            indexBy="key"
            colors={[BAR]}
            margin={BAR_MARGIN}
            padding={0.3}
            animate={false}
            borderRadius={3}
            valueFormat={formatCount}
            enableLabel={false}
            // Each count sits above its bar, so a bar too short to hold it still shows its number;
            // only where each bar has room for it (1,00,000 is ~40 px wide); else the tooltip.
            enableTotals={band >= 44}
            totalsOffset={6}
            layers={['grid', 'axes', MinimumBars, 'bars', 'totals', 'markers', 'legends', 'annotations']}
            axisBottom={{ renderTick: (tick) => <WrappedTick {...tick} layout={layout} /> }}
            axisLeft={{ tickValues: 5, format: (v) => (Number.isInteger(v) ? formatCount(Number(v)) : '') }}
            tooltip={({ indexValue, value }) => <ChartTooltip label={String(indexValue)} count={value} />}
            // Keyboard users reach each bar with Tab; focus shows the same tooltip as hover.
            isFocusable
            barAriaLabel={(d) => `${d.indexValue}: ${formatCount(d.value ?? 0)}`}
            theme={theme}
            role="group"
            ariaLabel={indexLabel}
          />
        );
      }}
    </Sized>
  );
}
