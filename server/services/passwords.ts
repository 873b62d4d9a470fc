import { type Algorithm, hash, verify } from '@node-rs/argon2';

// Algorithm 2 is Argon2id (a const enum, which isolated modules cannot read).
// OWASP's argon2id minimum (DESIGN.md §3): m=19456 KiB, t=2, p=1.
const options = {
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, options);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// Verified against when the email is unknown, so a wrong email costs as long as a wrong password.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('Dummy-password-1!');
  return dummyHash;
}
