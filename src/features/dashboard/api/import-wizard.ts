import type { UploadResponse } from '../../../../contract/admin';
import {
  COMMIT_STREAM_TYPE,
  type CommitStreamLine,
  type ImportMapping,
  type ImportPreview,
} from '../../../../contract/import-wizard';
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

/**
 * `POST /Admin/imports/{draftId}/commit`: imports it; the answer is upload-leads'. Asked for
 * lines (COMMIT_STREAM_TYPE), the server tells `onProgress` how many rows below the header are
 * done as it goes; an error after the first rows comes as the last line and is thrown here.
 */
export async function commitImport(
  draftId: number,
  mapping: ImportMapping,
  autoAssign: boolean,
  onProgress: (rowsDone: number) => void = () => {},
): Promise<UploadResponse> {
  const response = await api.post(`Admin/imports/${draftId}/commit`, {
    json: { ...mapping, autoAssign },
    headers: { accept: `${COMMIT_STREAM_TYPE}, application/json` },
    ...LONG,
  });
  // A file done before its first progress line, or a server that does not stream: plain JSON.
  if (!response.headers.get('content-type')?.includes(COMMIT_STREAM_TYPE) || !response.body) {
    return response.json<UploadResponse>();
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (value) pending += decoder.decode(value, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const text of lines) {
      if (!text.trim()) continue;
      const line = JSON.parse(text) as CommitStreamLine;
      if ('progress' in line) onProgress(line.progress.rowsDone);
      else if ('answer' in line) return line.answer;
      else throw new Error(line.error.message);
    }
    if (done)
      throw new Error('The import stopped without an answer. Check Import history before trying again.');
  }
}
