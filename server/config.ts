import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const positiveInt = z.coerce.number().int().positive();

// Every environment variable the server reads; README's configuration table mirrors this.
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8093),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'must start with postgres://, postgresql:// or sqlite:')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_TTL_HOURS: positiveInt.default(24 * 7),
  AADHAAR_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)')
    .optional(),
  ADMIN_EMAIL: z.email().default('admin@leadnest.local'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  SEED_ADMIN: bool.default(true),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('LeadNest <no-reply@leadnest.local>'),
  MAX_UPLOAD_MB: positiveInt.default(20),
  MAX_UPLOAD_ROWS: positiveInt.default(100_000),
  LOGIN_MAX_PER_EMAIL: positiveInt.default(10),
  LOGIN_MAX_PER_IP: positiveInt.default(100),
  LOGIN_WINDOW_SECONDS: positiveInt.default(15 * 60),
  // Issue 16: how many proxies (or which ones) stand before the API; see parseTrustProxy.
  TRUST_PROXY: z
    .string()
    .refine((v) => parseTrustProxy(v) !== null, {
      message: 'must be false, true (one hop), a hop count, or a comma list of proxy IPs/CIDRs',
    })
    .default('false'),
  // Issue 16: a connection silent this long while sending a request is closed (docs/security.md).
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STATIC_DIR: z.string().min(1).default('./dist'),
  // Issue 19: the zone a spreadsheet's times are read in and answers are written in.
  AGENCY_TIMEZONE: z
    .string()
    .refine(validTimeZone, 'must be an IANA time zone such as Asia/Kolkata')
    .default('Asia/Kolkata'),
  // Follow-ups (issue 15, docs/follow-ups.md). VAPID keys: both or neither, the same on every node.
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'must start with mailto: or https://')
    .optional(),
  REMINDER_SCAN_SECONDS: z.coerce.number().positive().max(3600).default(30),
  REMINDER_STALE_MINUTES: positiveInt.default(60),
  REMINDER_CLAIM_LEASE_SECONDS: positiveInt.default(300),
  // Test-only: 'kill-after-reminder-claim' SIGKILLs the process between a claim and its sends.
  LEADNEST_TEST_FAULT: z.enum(['kill-after-reminder-claim']).optional(),
});

/**
 * TRUST_PROXY: `false`/`0` trusts no proxy; `true` means one hop (the proxy in front of the API,
 * never every hop: a client could then pick its own address with X-Forwarded-For); a number is
 * a hop count; otherwise a comma list of the proxies' addresses or CIDR ranges. Null if invalid.
 */
export function parseTrustProxy(value: string): false | number | string[] | null {
  const v = value.trim().toLowerCase();
  if (v === 'false' || v === 'no' || v === '0') return false;
  if (v === 'true' || v === 'yes') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim());
  const valid = entries.every((entry) => {
    const [address, bits, extra] = entry.split('/');
    const family = net.isIP(address ?? '');
    if (!family || extra !== undefined) return false;
    if (bits === undefined) return true;
    return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  });
  return valid && entries.length > 0 ? entries : null;
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export type Env = z.input<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string };
  jwtSecret?: string;
  jwtTtlSeconds: number;
  aadhaarKey?: string;
  adminEmail: string;
  adminPassword?: string;
  seedAdmin: boolean;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  maxUploadBytes: number;
  maxUploadRows: number;
  login: { maxPerEmail: number; maxPerIp: number; windowSeconds: number };
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses/CIDRs. */
  trustProxy: false | number | string[];
  /** Seconds a connection may stay silent while sending a request (issue 16). */
  requestTimeoutSeconds: number;
  logLevel: string;
  staticDir: string | null;
  agencyTimeZone: string;
  vapid: { publicKey?: string; privateKey?: string; subject: string };
  reminders: { scanSeconds: number; staleMinutes: number; claimLeaseSeconds: number };
  testFault?: 'kill-after-reminder-claim';
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (!e.VAPID_PUBLIC_KEY !== !e.VAPID_PRIVATE_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or neither)',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const url = e.DATABASE_URL;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database:
      url && /^postgres/.test(url)
        ? { kind: 'postgres', url }
        : {
            kind: 'sqlite',
            file: url ? path.resolve(url.replace(/^sqlite:/, '')) : path.join(dataDir, 'leadnest.sqlite'),
          },
    jwtSecret: e.JWT_SECRET,
    jwtTtlSeconds: e.JWT_TTL_HOURS * 3600,
    aadhaarKey: e.AADHAAR_KEY,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    seedAdmin: e.SEED_ADMIN,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    maxUploadBytes: e.MAX_UPLOAD_MB * 1024 * 1024,
    maxUploadRows: e.MAX_UPLOAD_ROWS,
    login: {
      maxPerEmail: e.LOGIN_MAX_PER_EMAIL,
      maxPerIp: e.LOGIN_MAX_PER_IP,
      windowSeconds: e.LOGIN_WINDOW_SECONDS,
    },
    trustProxy: parseTrustProxy(e.TRUST_PROXY) ?? false,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    logLevel: e.LOG_LEVEL,
    staticDir: e.STATIC_DIR === 'none' ? null : path.resolve(e.STATIC_DIR),
    agencyTimeZone: e.AGENCY_TIMEZONE,
    vapid: {
      publicKey: e.VAPID_PUBLIC_KEY,
      privateKey: e.VAPID_PRIVATE_KEY,
      subject: e.VAPID_SUBJECT ?? `mailto:${e.ADMIN_EMAIL.toLowerCase()}`,
    },
    reminders: {
      scanSeconds: e.REMINDER_SCAN_SECONDS,
      staleMinutes: e.REMINDER_STALE_MINUTES,
      claimLeaseSeconds: e.REMINDER_CLAIM_LEASE_SECONDS,
    },
    testFault: e.LEADNEST_TEST_FAULT,
  };
}
