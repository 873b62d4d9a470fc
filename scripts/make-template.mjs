// Writes public/templates/leads-template.xlsx, the sample the dashboard links to (DESIGN.md §4).
// Run: node scripts/make-template.mjs
import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';

const rows = [
  ['Name', 'Phone No', 'Email', 'Visit DateTime', 'Configuration', 'Site Visit', 'Location'],
  [
    'Asha Verma',
    '98765 43210',
    'asha.verma@example.com',
    '05/01/2026 10:30',
    '2 BHK',
    'Green Acres Expo',
    'Baner',
  ],
  ['Ravi Kumar', '+91 91234 56789', '', '2026-01-06 16:00', '3 BHK', 'Facebook Ads', 'Wakad'],
];
const sheet = XLSX.utils.aoa_to_sheet(rows);
sheet['!cols'] = [{ wch: 20 }, { wch: 16 }, { wch: 26 }, { wch: 18 }, { wch: 14 }, { wch: 20 }, { wch: 14 }];
const book = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(book, sheet, 'Leads');
const out = path.resolve(import.meta.dirname, '../public/templates/leads-template.xlsx');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }));
console.log(`wrote ${path.relative(process.cwd(), out)}`);
