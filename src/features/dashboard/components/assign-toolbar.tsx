import { useId } from 'react';
import type { Employee } from '../../../../contract/leads';
import { messages } from '../../../../contract/messages';

interface AssignToolbarProps {
  showAll: boolean;
  onShowAllChange: (showAll: boolean) => void;
  employees: Employee[];
  employeeId: string;
  onEmployeeChange: (employeeId: string) => void;
  selectedCount: number;
  assigning: boolean;
  onAssign: () => void;
}

/** Spec §2 toolbar: Show All Leads, the employee dropdown and Assign Leads. */
export function AssignToolbar(props: AssignToolbarProps) {
  const selectId = useId();
  const hintId = useId();
  const ready = props.employeeId !== '' && props.selectedCount > 0;
  return (
    <section className="panel toolbar" aria-label="Assign leads">
      <label className="check">
        <input
          type="checkbox"
          checked={props.showAll}
          onChange={(e) => props.onShowAllChange(e.target.checked)}
        />
        Show All Leads
      </label>
      <div className="toolbar-assign">
        <label className="visually-hidden" htmlFor={selectId}>
          Employee
        </label>
        <select
          id={selectId}
          className="input select toolbar-select"
          value={props.employeeId}
          onChange={(e) => props.onEmployeeChange(e.target.value)}
        >
          <option value="">Select Employee</option>
          {props.employees.map((e) => (
            <option key={e.registrationId} value={e.registrationId}>
              {e.email}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-primary"
          disabled={!ready || props.assigning}
          aria-busy={props.assigning}
          aria-describedby={ready ? undefined : hintId}
          onClick={props.onAssign}
        >
          Assign Leads{props.selectedCount > 0 ? ` (${props.selectedCount.toLocaleString()})` : ''}
        </button>
      </div>
      {ready ? null : (
        <p id={hintId} className="muted toolbar-hint">
          {messages.assign.needSelection}
        </p>
      )}
    </section>
  );
}
