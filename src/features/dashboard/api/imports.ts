import type { ImportHistoryItem, UndoImportResponse, UploadResponse } from '../../../../contract/admin';
import { api } from '../../../lib/api-client';

/** What the result panel shows of one import, from an upload's answer or the history. */
export interface ImportResult {
  importId: number | null;
  fileName: string;
  /** When and by whom, for an import read back from the history. */
  createdAt?: string;
  createdBy?: string;
  totalRows: number;
  inserted: number;
  duplicatesInFile: number;
  duplicatesInSystem: number;
  /** Existing leads whose empty fields the import filled (the wizard's "update duplicates"). */
  updated: number;
  invalid: number;
  warnings: number;
  assignedTo: { email: string; count: number }[];
  hasRejectedRows: boolean;
  /** The rejected rows as the upload answered them (base64), until the page is left. */
  invalidFile?: string;
  sheet?: { name: string; sheets: string[] };
  message?: string;
}

export function resultOfUpload(answer: UploadResponse, fileName: string): ImportResult {
  return {
    importId: answer.importId ?? null,
    fileName,
    totalRows: answer.totalRows,
    inserted: answer.inserted,
    duplicatesInFile: answer.duplicatesInFile ?? 0,
    duplicatesInSystem: answer.duplicatesInSystem ?? 0,
    updated: answer.updated ?? 0,
    // An older server sends only `skipped`: all of it is shown as rejected.
    invalid: answer.invalid ?? answer.skipped,
    warnings: answer.warnings ?? 0,
    assignedTo: answer.assignedTo ?? [],
    hasRejectedRows: answer.invalidFile !== undefined,
    invalidFile: answer.invalidFile,
    sheet: answer.sheet,
    message: answer.message,
  };
}

export function resultOfHistory(item: ImportHistoryItem): ImportResult {
  return { ...item, importId: item.importId };
}

/** `GET /Admin/imports`: the import history, newest first. Async: a failure is a rejection. */
export async function fetchImports(): Promise<ImportHistoryItem[]> {
  return api.get('Admin/imports').json<ImportHistoryItem[]>();
}

/** The rejected-rows .xlsx the server kept for an import. */
export async function fetchRejectedRows(importId: number): Promise<Blob> {
  return api.get(`Admin/imports/${importId}/rejected-rows`).blob();
}

/** `POST /Admin/imports/{id}/undo`: removes the import's leads nobody has worked yet. */
export async function undoImport(importId: number): Promise<UndoImportResponse> {
  return api.post(`Admin/imports/${importId}/undo`).json<UndoImportResponse>();
}
