import type { UploadResponse } from '../../../../contract/admin';
import type { ImportMapping, ImportPreview } from '../../../../contract/import-wizard';
import { api } from '../../../lib/api-client';
import { fetchWithProgress } from './upload-leads';

// A big file's dry run reads every row: give it the time an upload gets.
const LONG = { timeout: 180_000 } as const;

/**
 * `POST /Admin/imports?counts=later`: keeps the file on the server and answers its preview as
 * soon as the first rows are read; the counts come from `previewImport` (issue 19).
 */
export async function startImport(file: File): Promise<ImportPreview> {
  const body = new FormData();
  body.append('file', file);
  // Through XMLHttpRequest as the one-click upload: the same multipart encoding everywhere.
  const fetch = fetchWithProgress(body, () => {}) as typeof globalThis.fetch;
  return api
    .post('Admin/imports', { body, searchParams: { counts: 'later' }, ...LONG, fetch })
    .json<ImportPreview>();
}

/**
 * `POST /Admin/imports/{draftId}/preview`: the preview again for another mapping; with
 * `counts: 'later'` as soon as its samples are read, else with the exact counts.
 */
export async function previewImport(
  draftId: number,
  mapping: ImportMapping,
  counts: 'now' | 'later' = 'now',
): Promise<ImportPreview> {
  return api
    .post(`Admin/imports/${draftId}/preview`, { json: mapping, searchParams: { counts }, ...LONG })
    .json<ImportPreview>();
}

/** `POST /Admin/imports/{draftId}/commit`: imports it; the answer is upload-leads'. */
export async function commitImport(
  draftId: number,
  mapping: ImportMapping,
  autoAssign: boolean,
): Promise<UploadResponse> {
  return api
    .post(`Admin/imports/${draftId}/commit`, { json: { ...mapping, autoAssign }, ...LONG })
    .json<UploadResponse>();
}
