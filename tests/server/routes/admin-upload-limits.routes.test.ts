import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  bearer,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { multipart, phone, type Row, workbook } from './admin-upload-support';

describe('limits', () => {
  let small: TestApp;
  let smallAdmin: Account;
  beforeAll(async () => {
    small = await createTestApp({ MAX_UPLOAD_MB: '1', MAX_UPLOAD_ROWS: '5' });
    smallAdmin = await createFirstAdmin(small.app);
  });
  afterAll(() => small.close());

  const send = (content: Buffer) => {
    const { payload, contentType } = multipart('big.xlsx', content);
    return small.app.inject({
      method: 'POST',
      url: '/api/Admin/upload-leads?autoAssign=false',
      payload,
      headers: { ...bearer(smallAdmin), 'content-type': contentType },
    });
  };

  it('answers 413 naming the size limit for a file past MAX_UPLOAD_MB', async () => {
    const res = await send(Buffer.concat([workbook([['Name', 'Phone']]), Buffer.alloc(1024 * 1024 + 1)]));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The file is larger than 1 MB, the limit for one upload.');
  });

  it('answers 413 naming the row limit past MAX_UPLOAD_ROWS, and imports nothing', async () => {
    const rows: Row[] = [['Name', 'Phone']];
    for (let i = 0; i < 6; i++) rows.push([`Lead ${i}`, phone()]);
    const res = await send(workbook(rows));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toContain('more than 5 rows');
    const stats = await small.app.inject({ url: '/api/Admin/stats', headers: bearer(smallAdmin) });
    expect(stats.json()).toMatchObject({ assigned: 0, unassigned: 0 });
  });

  it('accepts exactly MAX_UPLOAD_ROWS rows', async () => {
    const rows: Row[] = [['Name', 'Phone']];
    for (let i = 0; i < 5; i++) rows.push([`Lead ${i}`, phone()]);
    const res = await send(workbook(rows));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ totalRows: 5, inserted: 5 });
  });
});
