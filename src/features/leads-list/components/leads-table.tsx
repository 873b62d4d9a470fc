import { Link } from 'react-router-dom';
import type { LeadListItem } from '../../../../contract/leads-paging';
import { leadStoryPath } from '../../../config/paths';

interface LeadsTableProps {
  leads: LeadListItem[];
  busy: boolean;
  onEdit: (lead: LeadListItem) => void;
  onDelete: (lead: LeadListItem) => void;
}

// Spec §2: striped, bordered, hover table with ID, Name, Email, Phone, Actions. On phones each
// row becomes a card; data-label carries the column name there.
export function LeadsTable({ leads, busy, onEdit, onDelete }: LeadsTableProps) {
  return (
    <div className="leads-table-wrap">
      <table className="leads-table" aria-busy={busy}>
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Phone</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {leads.map((lead) => (
            <tr key={lead.leadID}>
              <td data-label="ID" className="leads-cell-id">
                {lead.leadID}
              </td>
              <td data-label="Name" className="leads-cell-name">
                <Link className="lead-link" to={leadStoryPath(lead.leadID)}>
                  {lead.name}
                </Link>
              </td>
              <td data-label="Email" className="leads-cell-email">
                {lead.email || <span className="muted">—</span>}
              </td>
              <td data-label="Phone" className="leads-cell-phone">
                {lead.contactNo}
              </td>
              <td data-label="Actions" className="leads-cell-actions">
                <div className="leads-actions">
                  <button
                    type="button"
                    className="button button-warning"
                    aria-label={`Edit ${lead.name}`}
                    onClick={() => onEdit(lead)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button button-danger"
                    aria-label={`Delete ${lead.name}`}
                    onClick={() => onDelete(lead)}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
