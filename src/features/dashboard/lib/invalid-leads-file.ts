const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Spec §9: the rejected rows download as InvalidLeads.xlsx. */
export const INVALID_LEADS_FILENAME = 'InvalidLeads.xlsx';

function saveBlob(blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = INVALID_LEADS_FILENAME;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: revoking at once cancels the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function saveInvalidLeads(base64: string): void {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  saveBlob(new Blob([bytes], { type: XLSX_TYPE }));
}

/** The same file, kept on the server for every import (issue 19). */
export function saveInvalidLeadsBlob(blob: Blob): void {
  saveBlob(blob.type ? blob : new Blob([blob], { type: XLSX_TYPE }));
}
