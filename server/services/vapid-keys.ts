import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../config';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * VAPID keys from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or generated once into the data dir like
 * the other secrets (server/services/secrets.ts). Every node must sign with the same pair: a
 * browser's subscription is bound to the public key it subscribed with.
 */
export function loadVapidKeys(config: Config): VapidKeys {
  const { publicKey, privateKey, subject } = config.vapid;
  if (publicKey && privateKey) return { publicKey, privateKey, subject };
  const file = path.join(config.dataDir, 'vapid.json');
  if (fs.existsSync(file)) {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return { ...stored, subject };
  }
  const generated = webpush.generateVAPIDKeys();
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // Written whole beside it, then linked in: of two processes starting together on one data dir,
  // the second's link fails and it reads the first's pair (never a half-written file).
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(generated), { mode: 0o600 });
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    return loadVapidKeys(config);
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return { ...generated, subject };
}
