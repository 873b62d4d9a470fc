// What the browser benchmarks share: the real built server with an Admin, and the API calls that
// seed it. The server itself is started as the e2e tests start it (tests/e2e/support/harness.ts).
import { verhoeffDigit } from '../contract/aadhaar';
import type { Lead } from '../contract/leads';
import { chromiumArgs, type RunningServer, startBuiltServer } from '../tests/e2e/support/harness';

export const ADMIN = { email: 'bench-admin@example.com', password: 'Bench@12345' };
export const EMPLOYEE_PASSWORD = 'Bench@12345';

/** Debian's Chromium with the e2e tests' flags, headless (Lighthouse launches it itself). */
export const chromiumFlags = ['--headless=new', ...chromiumArgs];

export interface BenchServer extends RunningServer {
  adminToken: string;
  api<T>(path: string, init?: { method?: string; body?: unknown; token?: string }): Promise<T>;
  signIn(email: string, password: string): Promise<string>;
}

export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const server = await startBuiltServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env });
  async function signIn(email: string, password: string): Promise<string> {
    const res = await fetch(`${server.url}/api/Registration/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { token: string }).token;
  }
  const adminToken = await signIn(ADMIN.email, ADMIN.password);
  async function api<T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const res = await fetch(`${server.url}/api/${path}`, {
      method: init.method ?? 'GET',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${init.token ?? adminToken}` },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
  return Object.assign(server, { adminToken, api, signIn });
}

/** Registers employee number `n` (its email, a unique phone and a valid Aadhaar number). */
export async function registerEmployee(server: BenchServer, n: number): Promise<string> {
  const email = `agent${n}@example.com`;
  const body = `${2 + (n % 8)}${String(1_000_000_000 + n).padStart(10, '0')}`;
  await server.api('Registration', {
    method: 'POST',
    body: {
      email,
      password: EMPLOYEE_PASSWORD,
      ConfirmPassword: EMPLOYEE_PASSWORD,
      contact: `8${String(100_000_000 + n).padStart(9, '0')}`,
      adharNo: `${body}${verhoeffDigit(body)}`,
      roleId: 3,
    },
  });
  return email;
}

const first = ['Anita', 'Vikram', 'Kiran', 'Rohan', 'Farah', 'Dev', 'Meera', 'Arjun', 'Sana', 'Neel'];
const last = ['Desai', 'Rao', 'Shah', 'Mehta', 'Khan', 'Patel', 'Iyer', 'Nair', 'Joshi', 'Kapoor'];
const places = ['Powai', 'Andheri', 'Thane', 'Bandra', 'Vashi'];
const configurations = ['1 BHK', '2 BHK', '3 BHK', 'Villa'];

/** Lead number `i` as the Admin would type it in: a name, a unique phone, a place, a configuration. */
export function leadFields(i: number) {
  return {
    name: `${first[i % 10]} ${last[Math.floor(i / 10) % 10]} ${i}`,
    phoneNo: `9${String(100_000_000 + i).padStart(9, '0')}`,
    email: `lead${i}@example.com`,
    location: places[i % places.length]!,
    configuration: configurations[i % configurations.length]!,
  };
}

/** Adds `count` leads through the Admin API, assigned to `assignedTo`. */
export async function addLeads(server: BenchServer, count: number, assignedTo: string): Promise<Lead[]> {
  const leads: Lead[] = [];
  for (let i = 0; i < count; i++)
    leads.push(
      await server.api<Lead>('Admin/leads', { method: 'POST', body: { ...leadFields(i), assignedTo } }),
    );
  return leads;
}
