// Header matching of DESIGN.md §4: case, spaces and punctuation are ignored, and the usual
// synonyms an agency's exports use are known.

export type LeadField =
  | 'name'
  | 'phone'
  | 'email'
  | 'visitDateTime'
  | 'configuration'
  | 'interestedIn'
  | 'siteVisit'
  | 'location';

const synonyms: Record<LeadField, readonly string[]> = {
  name: ['name', 'fullname', 'leadname', 'customername', 'clientname', 'customer'],
  phone: [
    'phone',
    'phoneno',
    'phonenumber',
    'mobile',
    'mobileno',
    'mobilenumber',
    'contact',
    'contactno',
    'contactnumber',
    'cell',
    'whatsapp',
    'whatsappno',
  ],
  email: ['email', 'emailid', 'emailaddress', 'mail', 'mailid'],
  visitDateTime: [
    'visitdatetime',
    'visitdate',
    'visittime',
    'visitdateandtime',
    'sitevisitdate',
    'sitevisitdatetime',
    'datetime',
    'date',
  ],
  configuration: ['configuration', 'config', 'bhk', 'unittype'],
  interestedIn: ['interestedin', 'interest'],
  siteVisit: ['sitevisit', 'campaign', 'campaignname', 'project', 'projectname', 'source', 'leadsource'],
  location: ['location', 'locationname', 'locality', 'area', 'city'],
};

const byHeader = new Map<string, LeadField>(
  (Object.entries(synonyms) as [LeadField, readonly string[]][]).flatMap(([field, names]) =>
    names.map((n) => [n, field] as const),
  ),
);

export function normaliseHeader(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Column index of each known field in a header row; the first matching column wins. */
export type ColumnMap = Partial<Record<LeadField, number>>;

export function mapColumns(header: readonly string[]): ColumnMap {
  const map: ColumnMap = {};
  header.forEach((text, i) => {
    const field = byHeader.get(normaliseHeader(text));
    if (field && map[field] === undefined) map[field] = i;
  });
  return map;
}

/** The required columns a header row lacks, named as the message shows them. */
export function missingColumns(map: ColumnMap): string[] {
  const missing: string[] = [];
  if (map.name === undefined) missing.push('Name');
  if (map.phone === undefined) missing.push('Phone');
  return missing;
}

export function missingColumnsMessage(missing: readonly string[]): string {
  const list = missing.length === 2 ? `${missing[0]} and ${missing[1]} columns` : `${missing[0]} column`;
  return (
    `The spreadsheet is missing the ${list}. ` +
    'Accepted headers include Name / Full Name and Phone / Phone No / Mobile / Contact No.'
  );
}
