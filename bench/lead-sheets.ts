import * as XLSX from '@e965/xlsx';

// Spreadsheets shaped like an agency's lead export, for the import benchmark and the template.

const firstNames = [
  'Asha',
  'Ravi',
  'Meena',
  'Kiran',
  'Neha',
  'Arjun',
  'Pooja',
  'Vikram',
  'Sneha',
  'Rahul',
  'Anita',
  'Suresh',
];
const lastNames = [
  'Verma',
  'Kumar',
  'Iyer',
  'Rao',
  'Joshi',
  'Shah',
  'Patil',
  'Nair',
  'Gupta',
  'Desai',
  'Menon',
  'Kulkarni',
];
const configurations = ['1 RK', '1 BHK', '2 BHK', '3 BHK', '4 BHK', 'Villa', 'Plot'];
const campaigns = [
  'Diwali Mailer',
  'Green Acres Expo',
  'Facebook Ads',
  'Google Search',
  'Walk-in',
  'Referral',
  'Property Portal',
  'Hoarding',
];
const locations = ['Baner', 'Wakad', 'Hinjewadi', 'Kharadi', 'Viman Nagar', 'Aundh', 'Hadapsar', 'Kothrud'];

export const HEADER = [
  'Name',
  'Phone No',
  'Email',
  'Visit DateTime',
  'Configuration',
  'Site Visit',
  'Location',
];

export interface SheetOptions {
  /** Every n-th row gets a bad phone (0: none). */
  invalidEvery?: number;
  /** Every n-th row repeats the phone of the row before it (0: none). */
  duplicateEvery?: number;
  /** Phones start here, so two sheets can hold different numbers. */
  phoneBase?: number;
}

export function leadRows(count: number, options: SheetOptions = {}): (string | number)[][] {
  const { invalidEvery = 0, duplicateEvery = 0, phoneBase = 7_000_000_000 } = options;
  const rows: (string | number)[][] = [HEADER];
  for (let i = 0; i < count; i++) {
    const first = firstNames[i % firstNames.length]!;
    const last = lastNames[Math.floor(i / firstNames.length) % lastNames.length]!;
    let phone: string | number = phoneBase + i;
    if (invalidEvery && i % invalidEvery === invalidEvery - 1) phone = `${phoneBase + i}`.slice(0, 7);
    else if (duplicateEvery && i % duplicateEvery === duplicateEvery - 1) phone = phoneBase + i - 1;
    rows.push([
      `${first} ${last} ${i}`,
      phone,
      `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
      // Excel serial: a visit some day in 2026 at 10:00–17:30.
      46023 + (i % 365) + (20 + (i % 16)) / 48,
      configurations[i % configurations.length]!,
      campaigns[i % campaigns.length]!,
      locations[i % locations.length]!,
    ]);
  }
  return rows;
}

export function toWorkbook(rows: (string | number)[][], bookType: 'xlsx' | 'biff8' = 'xlsx'): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet(rows, { dense: true });
  for (let r = 1; r < rows.length; r++) {
    const cell = (sheet['!data'] as XLSX.CellObject[][])[r]?.[3];
    if (cell) cell.z = 'dd/mm/yyyy hh:mm';
  }
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Leads');
  return XLSX.write(book, { type: 'buffer', bookType, compression: true }) as Buffer;
}
