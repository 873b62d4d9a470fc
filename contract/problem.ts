// RFC 9457 problem JSON (DESIGN.md §2). `message` repeats the human sentence because the
// spec's clients read `message`, `title` or `errors.Notes`.
export interface Problem {
  type: string;
  title: string;
  status: number;
  message: string;
  detail?: string;
  errors?: Record<string, string[]>;
  requireNotePopup?: boolean;
  /** 409 on assign (issue 19): the selected leads someone else assigned first. */
  takenLeadIds?: number[];
}
