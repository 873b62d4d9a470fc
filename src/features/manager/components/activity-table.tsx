import { useState } from 'react';
import type { EmployeeActivity } from '../../../../contract/manager';

type Key = Exclude<keyof EmployeeActivity, 'registrationId'>;

export const activityColumns: { key: Key; label: string }[] = [
  { key: 'email', label: 'Employee' },
  { key: 'notes', label: 'Notes' },
  { key: 'calls', label: 'Calls' },
  { key: 'moves', label: 'Moves' },
  { key: 'siteVisits', label: 'Site visits' },
  { key: 'bookings', label: 'Bookings' },
  { key: 'overdueFollowUps', label: 'Overdue follow-ups' },
  { key: 'untouched7d', label: 'Untouched 7+ days' },
];

/** Per-employee figures; a header sorts by its column (again: the other way). */
export function ActivityTable({
  rows,
  onOpen,
}: {
  rows: EmployeeActivity[];
  onOpen: (row: EmployeeActivity) => void;
}) {
  const [sort, setSort] = useState<{ key: Key; descending: boolean }>({ key: 'notes', descending: true });
  const sorted = [...rows].sort((a, b) => {
    const [x, y] = [a[sort.key], b[sort.key]];
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return (sort.descending ? -order : order) || a.email.localeCompare(b.email);
  });
  return (
    <div className="manager-table-wrap">
      <table className="manager-table">
        <thead>
          <tr>
            {activityColumns.map((c) => {
              const active = sort.key === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                >
                  <button
                    type="button"
                    className="manager-sort"
                    onClick={() =>
                      setSort({ key: c.key, descending: active ? !sort.descending : c.key !== 'email' })
                    }
                  >
                    {c.label}
                    <span aria-hidden="true">{active ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={row.registrationId}>
              <th scope="row">
                <button type="button" className="manager-link" onClick={() => onOpen(row)}>
                  {row.email}
                </button>
              </th>
              {activityColumns.slice(1).map((c) => (
                <td key={c.key} data-label={c.label}>
                  {row[c.key]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
