import { lazy, type ReactNode, Suspense } from 'react';
import type { LeadStats } from '../../../../contract/admin';
import { formatCount } from '../lib/format';

const charts = () => import('./lead-charts');
const AssignmentPie = lazy(async () => ({ default: (await charts()).AssignmentPie }));
const CountBars = lazy(async () => ({ default: (await charts()).CountBars }));

interface ChartCardProps {
  title: string;
  summary: string;
  /** Shown instead of an empty chart when there is nothing to draw. */
  empty?: string | false;
  /** The chart's bars take keyboard focus and name themselves, so it is not hidden from readers. */
  focusable?: boolean;
  children: ReactNode;
}

function ChartCard({ title, summary, empty, focusable = false, children }: ChartCardProps) {
  if (empty) {
    return (
      <figure className="chart-card">
        <figcaption className="chart-title">{title}</figcaption>
        <p className="chart-box chart-empty">{empty}</p>
      </figure>
    );
  }
  return (
    <figure className="chart-card">
      <figcaption className="chart-title">{title}</figcaption>
      {/* The numbers in words, for screen readers and for anyone who cannot see the colours. */}
      <p className="visually-hidden">{summary}</p>
      {/* A focusable bar inside aria-hidden would be reached by Tab yet named to no one. */}
      <div className="chart-box" aria-hidden={focusable ? undefined : true}>
        <Suspense fallback={<div className="chart-placeholder" />}>{children}</Suspense>
      </div>
    </figure>
  );
}

export const dashboardMessages = {
  noEmployees: 'No employees yet. Register one to assign leads.',
  noLeads: 'No leads yet. Upload a spreadsheet to add some.',
};

/** Spec §2: assigned vs unassigned, leads per employee, leads per campaign, ~250 px high. */
export function ChartsPanel({ stats }: { stats: LeadStats | null }) {
  if (!stats) {
    return (
      <section className="charts" aria-label="Lead charts">
        <p className="muted">Loading charts...</p>
      </section>
    );
  }
  const perEmployee = stats.perEmployee.reduce((n, e) => n + e.count, 0);
  const perCampaign = stats.perCampaign.reduce((n, c) => n + c.count, 0);
  const list = (items: { label: string; count: number }[]) =>
    items.map((i) => `${i.label}: ${formatCount(i.count)}`).join(', ') || 'none';
  const employees = stats.perEmployee.map((e) => ({ label: e.email, count: e.count }));
  const campaigns = stats.perCampaign.map((c) => ({ label: c.siteVisit, count: c.count }));
  return (
    <section className="charts" aria-label="Lead charts">
      <ChartCard
        title="Assigned vs Unassigned"
        summary={`Assigned: ${formatCount(stats.assigned)}, Unassigned: ${formatCount(stats.unassigned)}`}
        empty={stats.assigned + stats.unassigned === 0 && dashboardMessages.noLeads}
      >
        <AssignmentPie stats={stats} />
      </ChartCard>
      <ChartCard
        title={`Leads per Employee (total ${formatCount(perEmployee)})`}
        summary={list(employees)}
        empty={employees.length === 0 && dashboardMessages.noEmployees}
        focusable
      >
        <CountBars items={employees} indexLabel="Leads per employee" />
      </ChartCard>
      <ChartCard
        title={`Leads per Campaign (total ${formatCount(perCampaign)})`}
        summary={list(campaigns)}
        empty={campaigns.length === 0 && dashboardMessages.noLeads}
        focusable
      >
        <CountBars items={campaigns} indexLabel="Leads per campaign" />
      </ChartCard>
    </section>
  );
}
