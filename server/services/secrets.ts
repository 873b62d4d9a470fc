import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';

export interface Secrets {
  jwtSecret: Uint8Array;
  aadhaarKey: Buffer;
  aadhaarHashKey: Buffer;
}

/**
 * Secrets come from the environment, or are generated once into the data dir (DESIGN.md §3) so a
 * local install needs no setup. Several API nodes on one PostgreSQL must share JWT_SECRET and
 * AADHAAR_KEY through the environment.
 */
export function loadSecrets(config: Config): Secrets {
  let jwt = config.jwtSecret;
  let aadhaar = config.aadhaarKey;
  if (!jwt || !aadhaar) {
    const file = path.join(config.dataDir, 'secrets.json');
    let stored: { jwtSecret?: string; aadhaarKey?: string } = {};
    if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!stored.jwtSecret || !stored.aadhaarKey) {
      stored = {
        jwtSecret: stored.jwtSecret ?? crypto.randomBytes(48).toString('base64url'),
        aadhaarKey: stored.aadhaarKey ?? crypto.randomBytes(32).toString('hex'),
      };
      fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
    }
    jwt ??= stored.jwtSecret;
    aadhaar ??= stored.aadhaarKey;
  }
  const aadhaarKey = Buffer.from(aadhaar!, 'hex');
  return {
    jwtSecret: new TextEncoder().encode(jwt!),
    aadhaarKey,
    // A separate key for the duplicate-check hash, derived so one env var is enough.
    aadhaarHashKey: crypto.createHmac('sha256', aadhaarKey).update('aadhaar-duplicate-check').digest(),
  };
}
