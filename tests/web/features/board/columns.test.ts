import { describe, expect, it } from 'vitest';
import type { Lead } from '../../../../contract/leads';
import {
  buildColumns,
  clientStatusIdFor,
  NEW_LEADS,
  statusColumns,
  welcomeName,
  whatsAppLink,
} from '../../../../src/features/board/lib/columns';
import type { CachedLead } from '../../../../src/lib/db';

function buildLead(overrides: Partial<Lead> = {}): CachedLead {
  const lead: Lead = {
    leadID: 1,
    name: 'Asha Rao',
    email: '',
    phoneNo: '9876543210',
    contactNo: '9876543210',
    visitDateTime: null,
    configuration: '2 BHK',
    siteVisit: '',
    assignedTo: 'agent@agency.test',
    assignedDate: '2026-11-20T10:00:00.000Z',
    location: 'Powai',
    locationName: 'Powai',
    interestedIn: '',
    status: null,
    leadStatusId: null,
    ...overrides,
  };
  return { ...lead, base: lead, pendingCount: 0, attention: 0 };
}

const statuses = [
  { clientStatusId: 11, clientStat: 'Interested' },
  { clientStatusId: 12, clientStat: 'Site Visit' },
];

describe('board columns', () => {
  it('put every lead in exactly one column: New Leads without a status, else its status column, matched loosely', () => {
    const leads = [
      buildLead({ leadID: 1 }),
      buildLead({ leadID: 2, status: ' site visit ' }),
      buildLead({ leadID: 3, status: 'Interested' }),
      buildLead({ leadID: 4, status: 'A status no column has' }),
    ];
    const columns = buildColumns(leads, statuses);
    expect(columns.map((c) => [c.title, c.leads.map((l) => l.leadID)])).toEqual([
      [NEW_LEADS, [4, 1]],
      ['Interested', [3]],
      ['Site Visit', [2]],
    ]);
  });

  it('fall back to the four default statuses when the list is missing or empty', () => {
    for (const list of [undefined, []]) {
      expect(statusColumns(list).map((s) => s.clientStat)).toEqual([
        'Interested',
        'Site Visit',
        'Booking',
        'Not Interested',
      ]);
    }
  });

  it('map a column to its client status id case-insensitively, falling back to 1', () => {
    expect(clientStatusIdFor('  SITE visit', statuses)).toBe(12);
    expect(clientStatusIdFor('Booking', statuses)).toBe(1);
  });
});

describe('card helpers', () => {
  it('capitalise the local part of the email for the greeting', () => {
    expect(welcomeName('asha.rao@agency.test')).toBe('Asha.rao');
  });

  it('link WhatsApp to the Indian number with a greeting naming the lead', () => {
    const link = whatsAppLink('+91 98765-43210', 'Asha Rao');
    expect(link).toMatch(/^https:\/\/wa\.me\/919876543210\?text=/);
    expect(decodeURIComponent(link!.split('text=')[1]!)).toContain('Hello Asha Rao');
    expect(whatsAppLink('12', 'x')).toBeNull();
  });
});
