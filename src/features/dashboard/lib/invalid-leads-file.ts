const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Spec §9: the rejected rows download as InvalidLeads.xlsx. */
export const INVALID_LEADS_FILENAME = 'InvalidLeads.xlsx';

export function saveInvalidLeads(base64: string): void {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: XLSX_TYPE }));
  const link = document.createElement('a');
  link.href = url;
  link.download = INVALID_LEADS_FILENAME;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: revoking at once cancels the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
