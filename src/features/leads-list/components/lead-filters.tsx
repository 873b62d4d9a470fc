import { NO_CAMPAIGN } from '../../../../contract/admin';
import { NEW_STATUS_ID, NEW_STATUS_NAME } from '../../../../contract/manager';
import type { LeadsFilter } from '../api/leads';
import type { FilterOptions } from '../hooks/use-filter-options';

const ALL = '';
const UNASSIGNED = 'unassigned';
// A campaign's value carries a prefix so that leads with no campaign ('') differ from "All".
const campaignValue = (siteVisit: string) => `=${siteVisit}`;

function without(filter: LeadsFilter, ...keys: (keyof LeadsFilter)[]): LeadsFilter {
  const next = { ...filter };
  for (const key of keys) delete next[key];
  return next;
}

interface LeadFiltersProps {
  filter: LeadsFilter;
  options: FilterOptions;
  onChange: (next: LeadsFilter) => void;
}

/** Issue 19: the Leads List by campaign, by holder and by current status; "All" is no filter. */
export function LeadFilters({ filter, options, onChange }: LeadFiltersProps) {
  // The dashboard's counts name the empty campaign NO_CAMPAIGN; the filter wants it as ''.
  const campaigns = options.campaigns
    .map((name) => (name === NO_CAMPAIGN ? '' : name))
    .sort((a, b) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
  const employees = [...options.employees].sort((a, b) => a.email.localeCompare(b.email));
  const withoutCampaign = without(filter, 'siteVisit');
  const withoutEmployee = without(filter, 'employeeId', 'unassigned');
  const withoutStatus = without(filter, 'clientStatusId');

  const onCampaign = (value: string) =>
    onChange(value === ALL ? withoutCampaign : { ...withoutCampaign, siteVisit: value.slice(1) });
  const onEmployee = (value: string) => {
    if (value === ALL) onChange(withoutEmployee);
    else if (value === UNASSIGNED) onChange({ ...withoutEmployee, unassigned: true });
    else onChange({ ...withoutEmployee, employeeId: Number(value) });
  };
  const onStatus = (value: string) =>
    onChange(value === ALL ? withoutStatus : { ...withoutStatus, clientStatusId: Number(value) });

  const employeeValue = filter.unassigned
    ? UNASSIGNED
    : filter.employeeId === undefined
      ? ALL
      : String(filter.employeeId);
  return (
    <fieldset className="leads-filters">
      <legend className="visually-hidden">Filter leads</legend>
      <label className="leads-filter">
        Campaign
        <select
          className="input"
          value={filter.siteVisit === undefined ? ALL : campaignValue(filter.siteVisit)}
          onChange={(e) => onCampaign(e.target.value)}
        >
          <option value={ALL}>All</option>
          {campaigns.map((name) => (
            <option key={name} value={campaignValue(name)}>
              {name || 'No campaign'}
            </option>
          ))}
        </select>
      </label>
      <label className="leads-filter">
        Employee
        <select className="input" value={employeeValue} onChange={(e) => onEmployee(e.target.value)}>
          <option value={ALL}>All</option>
          <option value={UNASSIGNED}>Unassigned</option>
          {employees.map((e) => (
            <option key={e.registrationId} value={e.registrationId}>
              {e.email}
            </option>
          ))}
        </select>
      </label>
      <label className="leads-filter">
        Status
        <select
          className="input"
          value={filter.clientStatusId === undefined ? ALL : String(filter.clientStatusId)}
          onChange={(e) => onStatus(e.target.value)}
        >
          <option value={ALL}>All</option>
          <option value={NEW_STATUS_ID}>{NEW_STATUS_NAME}</option>
          {options.statuses.map((s) => (
            <option key={s.clientStatusId} value={s.clientStatusId}>
              {s.clientStat}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
