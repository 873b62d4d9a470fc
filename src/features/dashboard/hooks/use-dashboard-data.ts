import { useEffect, useState } from 'react';
import type { LeadStats } from '../../../../contract/admin';
import type { Employee } from '../../../../contract/leads';
import { fetchEmployees, fetchStats } from '../api/dashboard-api';

/** Chart counts (GET /Admin/stats), read again whenever `reloadKey` changes. */
export function useLeadStats(reloadKey: number): LeadStats | null {
  const [stats, setStats] = useState<LeadStats | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey is the "load again" signal.
  useEffect(() => {
    let current = true;
    fetchStats()
      .then((s) => current && setStats(s))
      .catch(() => {
        // The charts keep their last counts; the table and upload still work.
      });
    return () => {
      current = false;
    };
  }, [reloadKey]);
  return stats;
}

/** The assign dropdown's employees (spec §2: by email). */
export function useEmployees(): Employee[] {
  const [employees, setEmployees] = useState<Employee[]>([]);
  useEffect(() => {
    let current = true;
    fetchEmployees()
      .then((list) => current && setEmployees(list))
      .catch(() => {
        // An empty dropdown keeps Assign Leads disabled, which says enough.
      });
    return () => {
      current = false;
    };
  }, []);
  return employees;
}
