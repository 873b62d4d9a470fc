import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

// Dates are ISO-8601 text on both SQLite and PostgreSQL so they compare and sort the same way;
// booleans are 0/1 integers for the same reason.

export interface UserTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  contact: string | null;
  aadhaar_enc: string | null;
  aadhaar_hash: string | null;
  aadhaar_last4: string | null;
  role_id: number;
  is_active: ColumnType<number, number | undefined, number>;
  token_version: ColumnType<number, number | undefined, number>;
  created_at: string;
  last_sign_in_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OptionTable {
  id: Generated<number>;
  name: string;
  sort_order: number;
}

export interface LeadTable {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string;
  visit_date_time: string | null;
  configuration: string;
  site_visit: string;
  location: string;
  interested_in: string;
  assigned_to_id: number | null;
  assigned_date: string | null;
  created_at: string;
  created_by: number | null;
  deleted_at: string | null;
  /** The import that inserted the lead (issue 19), null for leads added by hand. */
  import_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** What the import noted about the row: text it could not use, a cut name (issue 19). */
  import_note: ColumnType<string, string | undefined, string>;
}

/** A file uploaded to the import wizard, not yet committed (issue 19). */
export interface ImportDraftTable {
  id: Generated<number>;
  created_at: string;
  created_by: number;
  file_name: string;
  file: Buffer;
  import_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** The last mapping an admin chose for a header row (issue 19). */
export interface ImportMappingTable {
  header_key: string;
  /** JSON of ImportMapping. */
  mapping: string;
  updated_at: string;
}

export interface LeadImportTable {
  id: Generated<number>;
  created_at: string;
  created_by: number;
  file_name: string;
  total_rows: ColumnType<number, number | undefined, number>;
  inserted: ColumnType<number, number | undefined, number>;
  duplicates_in_file: ColumnType<number, number | undefined, number>;
  duplicates_in_system: ColumnType<number, number | undefined, number>;
  invalid: ColumnType<number, number | undefined, number>;
  warnings: ColumnType<number, number | undefined, number>;
  /** JSON [{email, count}]. */
  assigned: string;
  rejected_file: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  undone_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Leads whose empty fields the import filled instead of skipping the row (issue 19). */
  updated: ColumnType<number, number | undefined, number>;
}

/** The fields one import filled on one existing lead (issue 19), for undo and the timeline. */
export interface LeadImportFillTable {
  id: Generated<number>;
  import_id: number;
  lead_id: number;
  /** JSON {column: value}, by leads' column names. */
  fields: string;
  at: string;
}

export interface LeadStatusTable {
  id: Generated<number>;
  lead_id: number;
  call_status_id: number;
  client_status_id: number;
  location_id: number | null;
  configuration_id: number | null;
  client_priority_id: number;
  token_id: number;
  notes: string;
  call_date_time: string | null;
  created_by: string;
  created_on: string;
  last_updated_by: string;
  last_updated_on: string;
}

export interface LeadNoteTable {
  id: Generated<number>;
  lead_id: number;
  lead_status_id: number;
  notes: string;
  call_status_id: number;
  client_status_id: number;
  location_id: number | null;
  configuration_id: number | null;
  call_date_time: string | null;
  created_by: string;
  created_on: string;
}

export interface ReminderTable {
  id: Generated<number>;
  lead_id: number;
  user_id: number;
  employee_email: string;
  reminder_time: string;
  note: string;
  is_sent: number;
  created_by: string;
  created_on: string;
  // Follow-ups (issue 15, migration 2026-11-25-0301).
  done_at: ColumnType<string | null, string | null | undefined, string | null>;
  sent_at: ColumnType<string | null, string | null | undefined, string | null>;
  next_send_at: ColumnType<string | null, string | null | undefined, string | null>;
  claimed_at: ColumnType<string | null, string | null | undefined, string | null>;
  attempts: ColumnType<number, number | undefined, number>;
  sent_channels: ColumnType<string, string | undefined, string>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PushSubscriptionTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyTable {
  user_id: number;
  key: string;
  method: string;
  path: string;
  body_hash: string;
  // null while the first request is still being processed
  status_code: number | null;
  response_body: string | null;
  created_at: string;
}

export interface RateLimitTable {
  key: string;
  count: number;
  window_start: number;
}

export interface PasswordResetTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface SettingTable {
  key: string;
  value: string;
}

/** Who moved a lead from whom to whom, and when (issue 17). */
export interface LeadAssignmentTable {
  id: Generated<number>;
  lead_id: number;
  from_user_id: number | null;
  to_user_id: number | null;
  by_user_id: number | null;
  at: string;
}

/** Every change of a lead's client status, logged by triggers on lead_statuses (issue 17). */
export interface LeadStatusChangeTable {
  id: Generated<number>;
  lead_id: number;
  from_status_id: number | null;
  to_status_id: number;
  changed_by: string;
  changed_at: string;
}

/** An edit of a lead's name on the Leads List, for its timeline (issue 17). */
export interface LeadNameChangeTable {
  id: Generated<number>;
  lead_id: number;
  from_name: string;
  to_name: string;
  by_user_id: number | null;
  at: string;
}

/** One write that changed what an employee's board shows (issue 18); filled by triggers. */
export interface LeadChangeTable {
  seq: number;
  lead_id: number;
  user_id: number;
}

export interface Database {
  users: UserTable;
  call_statuses: OptionTable;
  client_statuses: OptionTable;
  locations: OptionTable;
  configurations: OptionTable;
  leads: LeadTable;
  lead_statuses: LeadStatusTable;
  lead_notes: LeadNoteTable;
  reminders: ReminderTable;
  idempotency_keys: IdempotencyTable;
  rate_limits: RateLimitTable;
  password_resets: PasswordResetTable;
  settings: SettingTable;
  lead_assignments: LeadAssignmentTable;
  lead_status_changes: LeadStatusChangeTable;
  lead_imports: LeadImportTable;
  lead_import_fills: LeadImportFillTable;
  lead_name_changes: LeadNameChangeTable;
  import_drafts: ImportDraftTable;
  import_mappings: ImportMappingTable;
  lead_changes: LeadChangeTable;
  push_subscriptions: PushSubscriptionTable;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type LeadRow = Selectable<LeadTable>;
export type NewLead = Insertable<LeadTable>;
export type LeadUpdate = Updateable<LeadTable>;
export type LeadStatusRow = Selectable<LeadStatusTable>;
export type LeadNoteRow = Selectable<LeadNoteTable>;
export type ReminderRow = Selectable<ReminderTable>;
export type OptionTableName = 'call_statuses' | 'client_statuses' | 'locations' | 'configurations';
