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
