import { useCallback, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { messages } from '../../../../contract/messages';
import { isApiError } from '../../../lib/api-client';
import { assignLeads } from '../api/dashboard-api';
import { useEmployees, useLeadStats } from '../hooks/use-dashboard-data';
import { useDashboardLeads } from '../hooks/use-dashboard-leads';
import { formatCount } from '../lib/format';
import { AssignToolbar } from './assign-toolbar';
import { ChartsPanel } from './charts-panel';
import { DashboardHeader } from './dashboard-header';
import { LeadTable } from './lead-table';
import { UploadBar } from './upload-bar';
import './dashboard.css';
import { ExportLeadsButton } from '../../../components/ui/export-leads-button';

const m = messages.assign;

/** Spec §2 /dashboard: charts, upload, assignment and the lead table, at 100,000-lead scale. */
export function AdminDashboard() {
  const [showAll, setShowAll] = useState(false);
  const [reloadKey, setReloadKey] = useState(0);
  const [employeeId, setEmployeeId] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [assigning, setAssigning] = useState(false);
  // Selected leads another admin assigned first (issue 19): kept selected and marked.
  const [taken, setTaken] = useState<ReadonlySet<number>>(new Set());
  const leads = useDashboardLeads(showAll, reloadKey);
  const stats = useLeadStats(reloadKey);
  const employees = useEmployees();

  const unassignedIds = useMemo(
    () => leads.rows.filter((l) => l.assignedTo === '').map((l) => l.leadID),
    [leads.rows],
  );

  // Spec §4: the list reloads after the toggle, an upload and an assignment; a selection only
  // ever holds leads the table shows, so it starts empty each time.
  const reload = useCallback(() => {
    setSelected(new Set());
    setTaken(new Set());
    setReloadKey((k) => k + 1);
  }, []);
  const changeShowAll = (value: boolean) => {
    setSelected(new Set());
    setTaken(new Set());
    setShowAll(value);
  };

  const toggle = useCallback((leadId: number) => {
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(leadId)) next.add(leadId);
      return next;
    });
  }, []);
  const toggleAll = () =>
    setSelected((current) => (current.size === unassignedIds.length ? new Set() : new Set(unassignedIds)));

  const assign = async () => {
    if (employeeId === '' || selected.size === 0) return void toast.error(m.needSelection);
    setAssigning(true);
    try {
      await assignLeads(Number(employeeId), [...selected]);
      toast.success(m.success);
      reload();
    } catch (error) {
      const title = isApiError(error)
        ? error.problem.title
        : error instanceof Error
          ? error.message
          : String(error);
      toast.error(`${m.failedPrefix}${title}`);
      const takenIds = isApiError(error) && error.status === 409 ? error.problem.takenLeadIds : undefined;
      // Issue 19: nothing was assigned; the selection stays, with the leads taken meanwhile marked
      // so the admin can unselect them and assign the rest (docs/import.md).
      if (takenIds) setTaken(new Set(takenIds));
      // Someone else assigned (or deleted) some of these leads: show the list as it is now.
      else if (isApiError(error) && (error.status === 409 || error.status === 404)) reload();
    } finally {
      setAssigning(false);
    }
  };

  return (
    <div className="page dashboard">
      <DashboardHeader />
      <ChartsPanel stats={stats} />
      <UploadBar onUploaded={reload} />
      <AssignToolbar
        showAll={showAll}
        onShowAllChange={changeShowAll}
        employees={employees}
        employeeId={employeeId}
        onEmployeeChange={setEmployeeId}
        selectedCount={selected.size}
        assigning={assigning}
        onAssign={assign}
      />
      <section className="panel leads-panel" aria-label={showAll ? 'All leads' : 'Unassigned leads'}>
        <div className="leads-status-row">
          <p className="leads-status muted" role="status">
            {leads.loading
              ? 'Loading leads...'
              : leads.failed
                ? 'The leads could not be loaded. Reload the page to try again.'
                : leadsStatus(leads.rows.length, leads.total, leads.complete, showAll)}
          </p>
          {/* Issue 17: the leads this view shows (unassigned, or all), as a spreadsheet. */}
          <ExportLeadsButton filter={{ unassigned: !showAll }} />
        </div>
        <LeadTable
          rows={leads.rows}
          selected={selected}
          taken={taken}
          unassignedCount={unassignedIds.length}
          onToggle={toggle}
          onToggleAll={toggleAll}
        />
      </section>
    </div>
  );
}

function leadsStatus(loaded: number, total: number | null, complete: boolean, showAll: boolean): string {
  const what = showAll ? 'leads' : 'unassigned leads';
  if (complete) return `${formatCount(loaded)} ${what}`;
  return `Loaded ${formatCount(loaded)} of ${formatCount(total ?? loaded)} ${what}…`;
}
