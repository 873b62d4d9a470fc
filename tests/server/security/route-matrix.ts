import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Role, type RoleId } from '../../../contract/roles';
import type { App } from '../../../server/app';
import { type Account, buildRegistration, validAadhaar } from '../../helpers/test-server';

/**
 * Every /api route the app serves, with who may call it (DESIGN.md §3, OWASP ASVS 8.2).
 * access-matrix.test.ts fails when the app has a route missing here, or this lists one the app
 * does not have: a new route needs an entry, and so a decision about who may call it.
 *
 * `allow` is the effective rule: 'anyone' (no token needed), 'signed-in', or the roles that get
 * the route's success answer. `owned` marks routes on one lead: Employee B gets 404 for A's lead.
 */
export type Allow = 'anyone' | 'signed-in' | readonly RoleId[];

export interface MatrixContext {
  app: App;
  admin: Account;
  manager: Account;
  employeeA: Account;
  employeeB: Account;
  /** A lead assigned to Employee A; a new one per call so that writes never depend on each other. */
  freshLeadOfA(): Promise<{ id: number; name: string }>;
  /** A lead assigned to nobody. */
  freshUnassignedLead(): Promise<{ id: number; name: string }>;
  ids: { interested: number; connected: number; siteVisit: number };
  /** Aadhaar numbers sent in registrations: no answer may carry one. */
  aadhaars: string[];
}

export interface MatrixRequest {
  url: string;
  payload?: string | object | Buffer;
  headers?: Record<string, string>;
}

export interface MatrixEntry {
  allow: Allow;
  /** Success status for an allowed caller. */
  ok: number;
  owned?: boolean;
  /** The caller's own record (Employee A's here): every other allowed caller, Admin too, gets 404. */
  personal?: boolean;
  request(ctx: MatrixContext): Promise<MatrixRequest> | MatrixRequest;
  /** Runs after each call: for a call that ends the caller's tokens, it signs them in again. */
  after?(ctx: MatrixContext): Promise<void>;
}

/** Signs every account of the run in again (after a sign-out ended one's tokens). */
async function signInAgain(ctx: MatrixContext): Promise<void> {
  for (const account of [ctx.admin, ctx.manager, ctx.employeeA, ctx.employeeB]) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/Registration/login',
      payload: { email: account.email, password: account.password },
    });
    account.token = res.json().token;
  }
}

const { Admin, Manager, Employee } = Role;
const futureIso = () => new Date(Date.now() + 86_400_000).toISOString();
const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;

function multipartUpload(url = '/api/Admin/upload-leads?autoAssign=false'): MatrixRequest {
  const boundary = `----leadnest${crypto.randomBytes(8).toString('hex')}`;
  const file = fs.readFileSync(path.resolve('public/templates/leads-template.xlsx'));
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leads.xlsx"\r\n` +
      'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    url,
    payload: Buffer.concat([head, file, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** An import record with a rejected-rows file, as an upload leaves one (issue 19). */
async function importWithRejectedRows(ctx: MatrixContext): Promise<number> {
  const { db, leadImports } = ctx.app.deps;
  const id = await db
    .transaction()
    .execute((trx) =>
      leadImports.create(
        { createdAt: new Date().toISOString(), createdBy: ctx.admin.id, fileName: 'x.xlsx' },
        trx,
      ),
    );
  await leadImports.setRejectedFile(
    id,
    fs.readFileSync(path.resolve('public/templates/leads-template.xlsx')),
  );
  return id;
}

/** A file kept by the import wizard, not yet committed (issue 19). */
function importDraft(ctx: MatrixContext): Promise<number> {
  return ctx.app.deps.importDrafts.create(
    {
      createdBy: ctx.admin.id,
      fileName: 'leads.xlsx',
      file: fs.readFileSync(path.resolve('public/templates/leads-template.xlsx')),
    },
    new Date(),
  );
}

/** Keys are `METHOD /path` in lower case, as the app's router (case-insensitive) prints them. */
export const routeMatrix: Record<string, MatrixEntry> = {
  'GET /api/health': { allow: 'anyone', ok: 200, request: () => ({ url: '/api/health' }) },
  'GET /api/openapi.json': { allow: 'anyone', ok: 200, request: () => ({ url: '/api/openapi.json' }) },

  // Registration: declared 'optional' so that the very first account needs no token; afterwards
  // only an Admin registers (anonymous 401, other roles 403).
  'GET /api/registration': {
    allow: [Admin, Manager],
    ok: 200,
    request: () => ({ url: '/api/Registration' }),
  },
  'POST /api/registration': {
    allow: [Admin],
    ok: 201,
    request: (ctx) => {
      const body = buildRegistration({ roleId: Employee });
      ctx.aadhaars.push(body.adharNo);
      return { url: '/api/Registration', payload: body };
    },
  },
  'POST /api/registration/login': {
    allow: 'anyone',
    ok: 200,
    request: (ctx) => ({
      url: '/api/Registration/login',
      payload: { email: ctx.employeeA.email, password: ctx.employeeA.password },
    }),
  },
  // Ends the caller's tokens on the server (issue 16): the accounts sign in again afterwards.
  'POST /api/registration/logout': {
    allow: 'signed-in',
    ok: 204,
    request: () => ({ url: '/api/Registration/logout' }),
    after: signInAgain,
  },
  'GET /api/registration/check-email': {
    allow: [Admin],
    ok: 200,
    request: (ctx) => ({
      url: `/api/Registration/check-email?email=${encodeURIComponent(ctx.employeeA.email)}`,
    }),
  },
  'GET /api/registration/check-contact': {
    allow: [Admin],
    ok: 200,
    request: () => ({ url: `/api/Registration/check-contact?contact=${phone()}` }),
  },
  'GET /api/registration/check-aadhar': {
    allow: [Admin],
    ok: 200,
    request: () => ({ url: `/api/Registration/check-aadhar?aadharno=${validAadhaar()}` }),
  },
  'POST /api/registration/forgotpassword': {
    allow: 'anyone',
    ok: 200,
    request: () => ({
      url: '/api/Registration/forgotpassword',
      payload: { email: `nobody-${crypto.randomBytes(4).toString('hex')}@example.com` },
    }),
  },
  // A made-up reset token: the answer is the service's 400, for everyone alike.
  'POST /api/registration/reset-password': {
    allow: 'anyone',
    ok: 400,
    request: () => ({
      url: '/api/Registration/reset-password',
      payload: {
        token: crypto.randomBytes(24).toString('hex'),
        password: 'Secret@123',
        ConfirmPassword: 'Secret@123',
      },
    }),
  },

  'GET /api/search/leads': {
    allow: 'signed-in',
    ok: 200,
    request: async (ctx) => ({
      url: `/api/Search/leads?q=${encodeURIComponent((await ctx.freshLeadOfA()).name)}`,
    }),
  },

  'GET /api/leadstatus/call-statuses': {
    allow: 'signed-in',
    ok: 200,
    request: () => ({ url: '/api/LeadStatus/call-statuses' }),
  },
  'GET /api/leadstatus/client-statuses': {
    allow: 'signed-in',
    ok: 200,
    request: () => ({ url: '/api/LeadStatus/client-statuses' }),
  },
  'GET /api/leadstatus/configuration-statuses': {
    allow: 'signed-in',
    ok: 200,
    request: () => ({ url: '/api/LeadStatus/Configuration-statuses' }),
  },
  'GET /api/leadstatus/location-statuses': {
    allow: 'signed-in',
    ok: 200,
    request: () => ({ url: '/api/LeadStatus/location-statuses' }),
  },
  'POST /api/leadstatus': {
    allow: [Admin, Employee],
    ok: 201,
    owned: true,
    request: async (ctx) => ({
      url: '/api/LeadStatus',
      payload: {
        leadId: (await ctx.freshLeadOfA()).id,
        notes: 'Called, interested',
        callStatusId: ctx.ids.connected,
        clientStatusId: ctx.ids.siteVisit,
      },
    }),
  },
  'PUT /api/leadstatus/leads/:id/status': {
    allow: [Admin, Employee],
    ok: 200,
    owned: true,
    request: async (ctx) => ({
      url: `/api/LeadStatus/leads/${(await ctx.freshLeadOfA()).id}/status`,
      payload: { clientStatusId: ctx.ids.interested, notes: 'First call went well' },
    }),
  },
  'GET /api/leadstatus/leads/:id/history': {
    allow: [Admin, Employee],
    ok: 200,
    owned: true,
    request: async (ctx) => ({ url: `/api/LeadStatus/leads/${(await ctx.freshLeadOfA()).id}/history` }),
  },
  'POST /api/leadstatus/add-reminder': {
    allow: [Admin, Employee],
    ok: 201,
    owned: true,
    request: async (ctx) => ({
      url: '/api/LeadStatus/add-reminder',
      payload: { leadId: (await ctx.freshLeadOfA()).id, reminderTime: futureIso(), note: 'Call back' },
    }),
  },
  'GET /api/leadstatus/reminders': {
    allow: [Admin, Employee],
    ok: 200,
    request: () => ({ url: '/api/LeadStatus/reminders' }),
  },
  // Follow-ups (issue 15): done and snooze touch only the caller's own reminders.
  'PUT /api/leadstatus/reminders/:id': {
    allow: [Admin, Employee],
    ok: 200,
    personal: true,
    request: async (ctx) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/LeadStatus/add-reminder',
        headers: { authorization: `Bearer ${ctx.employeeA.token}` },
        payload: { leadId: (await ctx.freshLeadOfA()).id, reminderTime: futureIso() },
      });
      return { url: `/api/LeadStatus/reminders/${res.json().reminderId}`, payload: { done: true } };
    },
  },
  'GET /api/push/public-key': {
    allow: 'signed-in',
    ok: 200,
    request: () => ({ url: '/api/push/public-key' }),
  },
  'POST /api/push/subscriptions': {
    allow: 'signed-in',
    ok: 201,
    request: () => ({
      url: '/api/push/subscriptions',
      payload: {
        endpoint: `https://push.example.com/send/${crypto.randomUUID()}`,
        expirationTime: null,
        keys: {
          p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
      },
    }),
  },
  'DELETE /api/push/subscriptions': {
    allow: 'signed-in',
    ok: 204,
    request: () => ({
      url: '/api/push/subscriptions',
      payload: { endpoint: `https://push.example.com/send/${crypto.randomUUID()}` },
    }),
  },

  // DESIGN.md §3: editing and deleting leads is the Admin's.
  'PUT /api/leads/:leadid': {
    allow: [Admin],
    ok: 200,
    request: async (ctx) => ({
      url: `/api/Leads/${(await ctx.freshLeadOfA()).id}`,
      payload: { name: 'Renamed lead' },
    }),
  },
  'DELETE /api/leads/:leadid': {
    allow: [Admin],
    ok: 204,
    request: async (ctx) => ({ url: `/api/Leads/${(await ctx.freshLeadOfA()).id}` }),
  },

  // A lead's whole story (issue 17): every role; an employee only for a lead they hold.
  'GET /api/leads/:leadid/timeline': {
    allow: [Admin, Manager, Employee],
    ok: 200,
    owned: true,
    request: async (ctx) => ({ url: `/api/Leads/${(await ctx.freshLeadOfA()).id}/timeline` }),
  },
  // The spreadsheet export (issue 17): Admins and Managers.
  'GET /api/admin/leads/export': {
    allow: [Admin, Manager],
    ok: 200,
    request: () => ({ url: '/api/Admin/leads/export?format=xlsx' }),
  },

  'GET /api/admin/leads': {
    allow: [Admin, Manager, Employee],
    ok: 200,
    request: () => ({ url: '/api/Admin/leads' }),
  },
  'POST /api/admin/leads': {
    allow: [Admin, Employee],
    ok: 201,
    request: () => ({ url: '/api/Admin/leads', payload: { name: 'Walk-in lead', phoneNo: phone() } }),
  },
  'GET /api/admin/unassigned': {
    allow: [Admin, Manager],
    ok: 200,
    request: () => ({ url: '/api/Admin/unassigned' }),
  },
  'GET /api/admin/employees': {
    allow: [Admin, Manager],
    ok: 200,
    request: () => ({ url: '/api/Admin/employees' }),
  },
  'POST /api/admin/assign': {
    allow: [Admin],
    ok: 200,
    request: async (ctx) => ({
      url: '/api/Admin/assign',
      payload: { employeeId: ctx.employeeA.id, leadIds: [(await ctx.freshUnassignedLead()).id] },
    }),
  },
  'POST /api/admin/upload-leads': { allow: [Admin], ok: 200, request: () => multipartUpload() },
  'GET /api/admin/stats': { allow: [Admin, Manager], ok: 200, request: () => ({ url: '/api/Admin/stats' }) },

  // The Employees screen (issue 17): Admin only, a Manager may read the list.
  'GET /api/admin/staff': { allow: [Admin, Manager], ok: 200, request: () => ({ url: '/api/Admin/staff' }) },
  'POST /api/admin/staff/:registrationid/deactivate': {
    allow: [Admin],
    ok: 200,
    request: async (ctx) => ({ url: `/api/Admin/staff/${await spareEmployee(ctx)}/deactivate`, payload: {} }),
  },
  'POST /api/admin/staff/:registrationid/reactivate': {
    allow: [Admin],
    ok: 200,
    request: async (ctx) => ({ url: `/api/Admin/staff/${await spareEmployee(ctx)}/reactivate`, payload: {} }),
  },
  'POST /api/admin/reassign': {
    allow: [Admin],
    ok: 200,
    request: async (ctx) => ({
      url: '/api/Admin/reassign',
      payload: {
        fromEmployeeId: ctx.employeeA.id,
        toEmployeeId: ctx.employeeB.id,
        leadIds: [(await ctx.freshLeadOfA()).id],
      },
    }),
  },

  'GET /api/manager/activity': {
    allow: [Admin, Manager],
    ok: 200,
    request: () => ({
      url: `/api/Manager/activity?from=${encodeURIComponent(new Date(Date.now() - 7 * 86_400_000).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`,
    }),
  },
  'GET /api/admin/imports': {
    allow: [Admin, Manager],
    ok: 200,
    request: () => ({ url: '/api/Admin/imports' }),
  },
  'GET /api/admin/imports/:id/rejected-rows': {
    allow: [Admin, Manager],
    ok: 200,
    request: async (ctx) => ({
      url: `/api/Admin/imports/${await importWithRejectedRows(ctx)}/rejected-rows`,
    }),
  },
  'POST /api/admin/imports': {
    allow: [Admin],
    ok: 200,
    request: () => multipartUpload('/api/Admin/imports'),
  },
  'POST /api/admin/imports/:id/preview': {
    allow: [Admin],
    ok: 200,
    request: async (ctx) => ({ url: `/api/Admin/imports/${await importDraft(ctx)}/preview`, payload: {} }),
  },
  'POST /api/admin/imports/:id/commit': {
    allow: [Admin],
    ok: 200,
    // A fresh draft each call: a draft is committed once.
    request: async (ctx) => ({
      url: `/api/Admin/imports/${await importDraft(ctx)}/commit`,
      payload: { autoAssign: false },
    }),
  },
  'POST /api/admin/imports/:id/undo': {
    allow: [Admin],
    ok: 200,
    // A fresh import each call: an import is undone once.
    request: async (ctx) => ({ url: `/api/Admin/imports/${await importWithRejectedRows(ctx)}/undo` }),
  },
  // Issue 18. The batch answers 200 to whoever may sync; each op's own call decides (a 404 result
  // for another employee's lead, tested in tests/server/sync/).
  'POST /api/sync': {
    allow: [Admin, Employee],
    ok: 200,
    request: async (ctx) => ({
      url: '/api/sync',
      payload: {
        ops: [
          {
            key: crypto.randomUUID(),
            kind: 'note',
            body: {
              leadId: (await ctx.freshLeadOfA()).id,
              notes: 'Called',
              callStatusId: ctx.ids.connected,
              clientStatusId: ctx.ids.interested,
            },
          },
        ],
      },
    }),
  },
  'GET /api/sync/changes': { allow: [Employee], ok: 200, request: () => ({ url: '/api/sync/changes' }) },
};

/** An employee account nobody signs in with, for calls that switch an account off and on. */
async function spareEmployee(ctx: MatrixContext): Promise<number> {
  const row = await ctx.app.deps.db
    .insertInto('users')
    .values({
      email: `spare-${crypto.randomBytes(6).toString('hex')}@example.com`,
      password_hash: 'unused',
      contact: null,
      aadhaar_enc: null,
      aadhaar_hash: null,
      aadhaar_last4: null,
      role_id: Employee,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The app's /api routes as `METHOD /path` (lower case, HEAD left out), read from the router
 * itself: `printRoutes({ commonPrefix: false })` prints one node per line, children indented
 * four columns under their parent, methods in brackets.
 */
export function routeTable(app: App): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const match = /^(\S+)(?: \(([^)]*)\))?/.exec(line.slice(at + 4));
    if (!match) continue;
    stack.length = depth;
    stack.push(match[1]!);
    const url = stack.join('').toLowerCase();
    if (!url.startsWith('/api') || !match[2]) continue;
    for (const method of match[2].split(',').map((m) => m.trim())) {
      if (method !== 'HEAD') routes.push(`${method} ${url}`);
    }
  }
  return routes.sort();
}
