import { type RoleId, roleNames } from '../../../../contract/roles';
import type { StaffMember } from '../../../../contract/staff';
import { formatSignIn } from '../lib/format';

interface Props {
  staff: StaffMember[];
  /** Null for a reader (a Manager): no action buttons. */
  actions: {
    busyId: number | null;
    onDeactivate: (m: StaffMember) => void;
    onReactivate: (m: StaffMember) => void;
    onReassign: (m: StaffMember) => void;
    onSendReset: (m: StaffMember) => void;
  } | null;
}

/** An address that may break before its "@" and nowhere else, so the column stays narrow. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

/** Every account; on a phone each row becomes a card (staff.css), labels from data-label. */
export function StaffTable({ staff, actions }: Props) {
  return (
    <div className="staff-table-wrap">
      <table className="staff-table">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Contact</th>
            <th scope="col">Aadhaar</th>
            <th scope="col">Status</th>
            <th scope="col">Open leads</th>
            <th scope="col">Touched (7 days)</th>
            <th scope="col">Last sign-in</th>
            {actions ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {staff.map((m) => (
            <tr key={m.registrationId} data-active={m.active}>
              <th scope="row" className="staff-email">
                <EmailText email={m.email} />
                <span className="staff-role">{roleNames[m.roleId as RoleId] ?? `Role ${m.roleId}`}</span>
              </th>
              <td data-label="Contact" className="staff-nowrap">
                {m.contact ?? '—'}
              </td>
              <td data-label="Aadhaar" className="staff-nowrap">
                {m.aadhaar ?? '—'}
              </td>
              <td data-label="Status">
                <span className={`staff-badge staff-badge-${m.active ? 'active' : 'inactive'}`}>
                  {m.active ? 'Active' : 'Inactive'}
                </span>
              </td>
              <td data-label="Open leads">{m.openLeads}</td>
              <td data-label="Touched (7 days)">{m.touched7d}</td>
              <td data-label="Last sign-in" className="staff-nowrap">
                {formatSignIn(m.lastSignInAt)}
              </td>
              {actions ? (
                <td className="staff-actions-cell">
                  <div className="staff-actions">
                    {m.openLeads > 0 ? (
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() => actions.onReassign(m)}
                        aria-label={`Reassign leads of ${m.email}`}
                      >
                        Reassign
                      </button>
                    ) : null}
                    {m.active ? (
                      <>
                        <button
                          type="button"
                          className="button button-secondary"
                          disabled={actions.busyId === m.registrationId}
                          onClick={() => actions.onSendReset(m)}
                          aria-label={`Send a password reset link to ${m.email}`}
                        >
                          Reset password
                        </button>
                        <button
                          type="button"
                          className="button staff-danger"
                          disabled={actions.busyId === m.registrationId}
                          onClick={() => actions.onDeactivate(m)}
                          aria-label={`Deactivate ${m.email}`}
                        >
                          Deactivate
                        </button>
                      </>
                    ) : (
                      <button
                        type="button"
                        className="button button-primary"
                        disabled={actions.busyId === m.registrationId}
                        onClick={() => actions.onReactivate(m)}
                        aria-label={`Reactivate ${m.email}`}
                      >
                        Reactivate
                      </button>
                    )}
                  </div>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
