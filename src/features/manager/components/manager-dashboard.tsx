import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ActivityAnswer, EmployeeActivity } from '../../../../contract/manager';
import { paths } from '../../../config/paths';
import { isApiError } from '../../../lib/api-client';
import { type DrillDown, fetchActivity } from '../api/activity';
import { dateInput, type Period, periodRange } from '../lib/period';
import { ActivityTable } from './activity-table';
import { CampaignsTable } from './campaigns-table';
import { DrillDownList } from './drill-down-list';
import { FunnelPanel } from './funnel-panel';
import { PeriodPicker } from './period-picker';
import './manager.css';

const ActivityChart = lazy(async () => ({ default: (await import('./activity-chart')).ActivityChart }));

/** The Manager dashboard at /manager (issue 17): read-only team figures for a period. */
export function ManagerDashboard() {
  const [period, setPeriod] = useState<Period>(() => {
    const today = new Date();
    return {
      kind: '7d',
      customFrom: dateInput(new Date(today.getTime() - 6 * 86_400_000)),
      customTo: dateInput(today),
    };
  });
  // A new period object (also "Try again") is a new range, and so a new fetch.
  const range = useMemo(() => periodRange(period), [period]);
  const [answer, setAnswer] = useState<ActivityAnswer | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [drill, setDrill] = useState<DrillDown | null>(null);

  useEffect(() => {
    if (!range) return;
    const abort = new AbortController();
    setLoading(true);
    setError(null);
    fetchActivity(range.from, range.to, abort.signal)
      .then(setAnswer, (e: unknown) => {
        if (!abort.signal.aborted)
          setError(isApiError(e) && e.problem.message ? e.problem.message : 'Could not load the figures.');
      })
      .finally(() => {
        if (!abort.signal.aborted) setLoading(false);
      });
    return () => abort.abort();
  }, [range]);

  const openEmployee = (row: EmployeeActivity) =>
    setDrill({ kind: 'employee', employeeId: row.registrationId, label: row.email });

  return (
    <div className="page manager-page">
      <div className="manager-head">
        <h1 className="page-title">Team activity</h1>
        <Link className="button button-secondary" to={paths.staff}>
          Employees
        </Link>
        <PeriodPicker period={period} onChange={setPeriod} />
      </div>
      {!range ? <p className="form-error">Choose a start and an end date, the start first.</p> : null}
      {error ? (
        <div className="notice notice-warning" role="alert">
          {error}{' '}
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setPeriod((p) => ({ ...p }))}
          >
            Try again
          </button>
        </div>
      ) : null}
      {!answer && loading ? (
        <p className="muted" role="status">
          Loading figures...
        </p>
      ) : null}
      {drill ? <DrillDownList target={drill} onClose={() => setDrill(null)} /> : null}
      {answer ? (
        <div className="manager-grid" aria-busy={loading}>
          <section className="manager-card manager-wide" aria-labelledby="manager-employees">
            <h2 id="manager-employees" className="manager-title">
              Employees
            </h2>
            {answer.employees.length === 0 ? (
              <p className="muted">No employees yet.</p>
            ) : (
              <>
                <ActivityTable rows={answer.employees} onOpen={openEmployee} />
                <Suspense fallback={<div className="manager-chart" />}>
                  <ActivityChart rows={answer.employees} />
                </Suspense>
              </>
            )}
          </section>
          <section className="manager-card" aria-labelledby="manager-funnel">
            <h2 id="manager-funnel" className="manager-title">
              Funnel
            </h2>
            <FunnelPanel funnel={answer.funnel} />
          </section>
          <section className="manager-card" aria-labelledby="manager-campaigns">
            <h2 id="manager-campaigns" className="manager-title">
              Campaigns
            </h2>
            <CampaignsTable
              campaigns={answer.campaigns}
              onOpen={(siteVisit) =>
                setDrill({ kind: 'campaign', siteVisit, label: siteVisit || '(no campaign)' })
              }
            />
          </section>
        </div>
      ) : null}
    </div>
  );
}
