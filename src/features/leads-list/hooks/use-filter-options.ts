import { useEffect, useState } from 'react';
import type { Employee } from '../../../../contract/leads';
import type { ClientStatusOption } from '../../../../contract/options';
import { fetchCampaigns, fetchClientStatuses, fetchEmployees } from '../api/filter-options';

export interface FilterOptions {
  campaigns: string[];
  employees: Employee[];
  statuses: ClientStatusOption[];
}

const none: FilterOptions = { campaigns: [], employees: [], statuses: [] };

/**
 * The filters' choices, read once when the screen opens. Each list stands alone: one that fails
 * leaves its select at "All" and the others usable, and the list of leads is not held up.
 */
export function useFilterOptions(): FilterOptions {
  const [options, setOptions] = useState<FilterOptions>(none);

  useEffect(() => {
    const controller = new AbortController();
    const load = <K extends keyof FilterOptions>(
      key: K,
      fetch: (s: AbortSignal) => Promise<FilterOptions[K]>,
    ) =>
      fetch(controller.signal).then(
        (value) => setOptions((o) => ({ ...o, [key]: value })),
        (error: unknown) => {
          if (!controller.signal.aborted) console.error(`Error loading the ${key} filter`, error);
        },
      );
    load('campaigns', fetchCampaigns);
    load('employees', fetchEmployees);
    load('statuses', fetchClientStatuses);
    return () => controller.abort();
  }, []);

  return options;
}
