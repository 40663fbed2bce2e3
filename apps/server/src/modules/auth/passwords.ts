/** argon2id hashing. The dummy hash lets an unknown username cost as much time as a wrong password. */
import { hash, verify, type Algorithm } from '@node-rs/argon2';

// Algorithm is a const enum in the .d.ts, which isolatedModules cannot inline: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;
// One of OWASP's equivalent argon2id settings (12 MiB, 3 passes): ~40 ms per verify on a 2-core machine,
// where the 19 MiB/2-pass variant costs ~110 ms — the same protection, a sign-in burst served 3× faster.
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 12_288, timeCost: 3, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/** Spends the time of one verification against a hash no password matches. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  await verifyPassword(await dummyHash, password);
}
