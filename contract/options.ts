// Option lists of spec §3, served by GET /api/LeadStatus/*-statuses.
export interface CallStatusOption {
  callStatusId: number;
  callStat: string;
}
export interface ClientStatusOption {
  clientStatusId: number;
  clientStat: string;
}
export interface LocationOption {
  locationId: number;
  locationName: string;
}
export interface ConfigurationOption {
  configurationId: number;
  configurationType: string;
}

// Spec §4 default columns, used when the client-status list cannot be loaded.
export const defaultClientStatuses = ['Interested', 'Site Visit', 'Booking', 'Not Interested'] as const;
