import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router-dom';
import { Role } from '../../../../contract/roles';
import { type ReassignAnswer, type StaffMember, staffMessages } from '../../../../contract/staff';
import { paths } from '../../../config/paths';
import { isApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { fetchStaff, sendResetLink, setActive } from '../api/staff';
import { leadCount, ReassignPanel } from './reassign-panel';
import { StaffTable } from './staff-table';
import './staff.css';

const failure = (e: unknown, fallback: string) =>
  isApiError(e) && e.problem.message ? e.problem.message : fallback;

/** The Employees screen at /staff (issue 17): Admins act on accounts, a Manager reads. */
export function StaffScreen() {
  const session = useSession();
  const isAdmin = session?.roleId === Role.Admin;
  const [staff, setStaff] = useState<StaffMember[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [reassigning, setReassigning] = useState<StaffMember | null>(null);

  const load = useCallback(async () => {
    try {
      const list = await fetchStaff();
      setStaff(list);
      setLoadError(null);
      return list;
    } catch (e) {
      setLoadError(failure(e, 'Could not load the accounts.'));
      return null;
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const change = async (member: StaffMember, active: boolean) => {
    setBusyId(member.registrationId);
    try {
      const answer = await setActive(member.registrationId, active);
      toast.success(answer.message);
      const list = await load();
      // A resignation's next step: move their leads on (issue 17 "under a minute").
      const fresh = list?.find((m) => m.registrationId === member.registrationId);
      if (!active && fresh && fresh.openLeads > 0) setReassigning(fresh);
    } catch (e) {
      toast.error(failure(e, 'The change could not be saved.'));
    } finally {
      setBusyId(null);
    }
  };

  const onDeactivate = (member: StaffMember) => {
    const question =
      `Deactivate ${member.email}? They are signed out at once and can no longer sign in.` +
      (member.openLeads > 0
        ? ` Their ${member.openLeads} open leads stay with them until you reassign them.`
        : '');
    if (window.confirm(question)) void change(member, false);
  };

  const onSendReset = async (member: StaffMember) => {
    setBusyId(member.registrationId);
    try {
      await sendResetLink(member.email);
      toast.success(staffMessages.resetSent(member.email));
    } catch (e) {
      toast.error(failure(e, 'The reset link could not be sent.'));
    } finally {
      setBusyId(null);
    }
  };

  const onReassigned = (answer: ReassignAnswer) => {
    const names = new Map(staff?.map((m) => [m.registrationId, m.email]));
    const spread = answer.perEmployee
      .map((p) => `${names.get(p.employeeId) ?? p.employeeId} (${p.count})`)
      .join(', ');
    toast.success(
      answer.reassigned ? `Moved ${leadCount(answer.reassigned)}: ${spread}` : 'No open leads to move.',
    );
    setReassigning(null);
    void load();
  };

  return (
    <div className="page staff-page">
      <div className="staff-head">
        <h1 className="page-title">Employees</h1>
        <Link className="button button-secondary" to={paths.manager}>
          Team activity
        </Link>
      </div>
      {!isAdmin ? <p className="muted">Read only: an Admin manages accounts.</p> : null}
      {loadError ? (
        <div className="notice notice-warning" role="alert">
          {loadError}{' '}
          <button type="button" className="button button-secondary" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : null}
      {!staff && !loadError ? (
        <p className="muted" role="status">
          Loading accounts...
        </p>
      ) : null}
      {reassigning && staff ? (
        <ReassignPanel
          key={reassigning.registrationId}
          from={reassigning}
          staff={staff}
          onDone={onReassigned}
          onCancel={() => setReassigning(null)}
        />
      ) : null}
      {staff ? (
        <StaffTable
          staff={staff}
          actions={
            isAdmin
              ? {
                  busyId,
                  onDeactivate,
                  onReactivate: (m) => void change(m, true),
                  onReassign: setReassigning,
                  onSendReset: (m) => void onSendReset(m),
                }
              : null
          }
        />
      ) : null}
    </div>
  );
}
