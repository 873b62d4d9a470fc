import type { UploadResponse } from '../../../../contract/admin';
import { api } from '../../../lib/api-client';

export type UploadProgress = { phase: 'uploading'; percent: number } | { phase: 'processing' };

function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

/**
 * fetch() reports no upload progress (streaming request bodies need HTTP/2), so the upload goes
 * through XMLHttpRequest. It is handed to the shared client as its `fetch`: the base URL, the
 * bearer token, the 401 handling and the problem-JSON errors stay the client's own.
 */
export function fetchWithProgress(form: FormData, onProgress: (progress: UploadProgress) => void) {
  return (request: Request): Promise<Response> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, name) => {
        // The browser writes the multipart boundary itself.
        if (name.toLowerCase() !== 'content-type') xhr.setRequestHeader(name, value);
      });
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) {
          onProgress({ phase: 'uploading', percent: Math.round((event.loaded / event.total) * 100) });
        }
      });
      xhr.upload.addEventListener('load', () => onProgress({ phase: 'processing' }));
      xhr.addEventListener('load', () =>
        resolve(
          new Response(xhr.status === 204 ? null : xhr.responseText, {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: responseHeaders(xhr),
          }),
        ),
      );
      xhr.addEventListener('error', () => reject(new TypeError('Network request failed')));
      xhr.addEventListener('abort', () =>
        reject(new DOMException('The upload was cancelled.', 'AbortError')),
      );
      request.signal.addEventListener('abort', () => xhr.abort());
      xhr.send(form);
    });
}

/** `POST /Admin/upload-leads?autoAssign=` (spec §7) with the file in the `file` field. */
export async function uploadLeads(
  file: File,
  autoAssign: boolean,
  onProgress: (progress: UploadProgress) => void,
): Promise<UploadResponse> {
  const form = new FormData();
  form.append('file', file);
  return api
    .post('Admin/upload-leads', {
      // Dates in the sheet that name no zone are read in the agency's zone (AGENCY_TIMEZONE), not
      // this browser's: an admin travelling abroad imports the same times (issue 19).
      searchParams: { autoAssign },
      body: form,
      // A 100,000-row sheet takes a while to parse and insert; the progress bar shows it is alive.
      timeout: false,
      fetch: fetchWithProgress(form, onProgress) as typeof fetch,
    })
    .json<UploadResponse>();
}
