import type { ActivityAnswer } from '../../../../contract/manager';

const NO_CAMPAIGN = '(no campaign)';

export function CampaignsTable({
  campaigns,
  onOpen,
}: {
  campaigns: ActivityAnswer['campaigns'];
  onOpen: (siteVisit: string) => void;
}) {
  if (campaigns.length === 0) return <p className="muted">No leads came in during this period.</p>;
  return (
    <div className="manager-table-wrap">
      <table className="manager-table manager-campaigns">
        <thead>
          <tr>
            <th scope="col">Campaign</th>
            <th scope="col">Leads</th>
            <th scope="col">Bookings</th>
            <th scope="col">Conversion</th>
          </tr>
        </thead>
        <tbody>
          {campaigns.map((c) => (
            <tr key={c.siteVisit}>
              <th scope="row">
                <button type="button" className="manager-link" onClick={() => onOpen(c.siteVisit)}>
                  {c.siteVisit || NO_CAMPAIGN}
                </button>
              </th>
              <td data-label="Leads">{c.leads}</td>
              <td data-label="Bookings">{c.bookings}</td>
              <td data-label="Conversion">
                {c.leads ? `${((100 * c.bookings) / c.leads).toFixed(1)}%` : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
