import crypto from 'node:crypto';
import type { Secrets } from './secrets';

// AES-256-GCM at rest, with an HMAC beside it for the duplicate check (DESIGN.md §3).
export function createAadhaarVault(secrets: Secrets) {
  return {
    encrypt(aadhaar: string): string {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', secrets.aadhaarKey, iv);
      const body = Buffer.concat([cipher.update(aadhaar, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    decrypt(stored: string): string {
      const raw = Buffer.from(stored, 'base64');
      const decipher = crypto.createDecipheriv('aes-256-gcm', secrets.aadhaarKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    hash(aadhaar: string): string {
      return crypto.createHmac('sha256', secrets.aadhaarHashKey).update(aadhaar).digest('hex');
    },
  };
}
export type AadhaarVault = ReturnType<typeof createAadhaarVault>;
