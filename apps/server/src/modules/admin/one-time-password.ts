/**
 * One-time passwords for invitations and resets: 20 characters from a 31-symbol alphabet without look-
 * alikes (no 0/O, 1/l/I), drawn with the CSPRNG — 99 bits, read aloud or typed from a screen without
 * mistakes, grouped by four for the eye: `k7mq-x2vd-…`. Only its argon2id hash is stored.
 */
import { randomInt } from 'node:crypto';

/** An unused one-time password stops working after this long (issue 17 item 7). */
export const ONE_TIME_PASSWORD_LIFETIME_MS = 72 * 3_600_000;

/** When a one-time password issued at `now` expires. */
export const oneTimePasswordExpiry = (now: Date): string =>
  new Date(now.getTime() + ONE_TIME_PASSWORD_LIFETIME_MS).toISOString();

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 5;
const GROUP_LENGTH = 4;

export function generateOneTimePassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}
