import { useState } from 'react';
import toast from 'react-hot-toast';
import { api, isApiError } from '../../lib/api-client';

/** The lead list's filter, as `GET /api/Admin/leads/export` takes it (contract/lead-export.ts). */
export interface LeadExportFilter {
  unassigned?: boolean;
  search?: string;
  employeeId?: number;
  siteVisit?: string;
  clientStatusId?: number;
}

function fileNameOf(disposition: string | null): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? 'leads.xlsx';
}

/**
 * Downloads the leads the screen shows as .xlsx (issue 17). The API wants the bearer token, so
 * the file is fetched and handed to the browser as a blob rather than opened as a plain link.
 */
export function ExportLeadsButton({ filter, className }: { filter: LeadExportFilter; className?: string }) {
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const searchParams: Record<string, string | number | boolean> = { format: 'xlsx' };
      for (const [key, value] of Object.entries(filter)) {
        // An empty search is no search, but siteVisit '' picks the leads with no campaign.
        if (value === undefined || value === false || (key === 'search' && value === '')) continue;
        searchParams[key] = value;
      }
      // A large export takes longer than the usual 15 s; it is one read, retried like any other.
      const response = await api.get('Admin/leads/export', { searchParams, timeout: 300_000 });
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response.headers.get('content-disposition'));
      document.body.append(link);
      link.click();
      link.remove();
      // Revoked later: some browsers read the blob after click() returns.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      toast.error(
        isApiError(error) && error.problem.message
          ? error.problem.message
          : 'The export could not be downloaded. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <button
      type="button"
      className={className ?? 'button button-secondary'}
      onClick={download}
      disabled={busy}
      aria-busy={busy}
    >
      {busy ? 'Exporting…' : 'Export to Excel'}
    </button>
  );
}
