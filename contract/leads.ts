// The lead JSON of DESIGN.md §2: every field of spec §3, phoneNo and contactNo both hold the phone.
export interface Lead {
  leadID: number;
  name: string;
  email: string;
  phoneNo: string;
  contactNo: string;
  visitDateTime: string | null;
  configuration: string;
  siteVisit: string;
  assignedTo: string;
  assignedDate: string | null;
  location: string;
  locationName: string;
  interestedIn: string;
  status: string | null;
  leadStatusId: number | null;
  /**
   * Beyond the spec (issue 19), present only when not empty: what the import that brought the
   * lead could not use as written ("Visit date as written: Next week", a cut name).
   */
  importNote?: string;
}

export interface Employee {
  registrationId: number;
  email: string;
}
