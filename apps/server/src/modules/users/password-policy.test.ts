import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, serverMessages } from '@inbound/contract';
import { passwordProblem } from './password-policy.js';

const check = (newPassword: string, username = 'medic1', currentPassword = 'demo-medic1') =>
  passwordProblem({ username, currentPassword, newPassword });

describe('password policy', () => {
  it('accepts a long, unusual password', () => {
    expect(check('correct horse battery staple')).toBeNull();
    expect(check('x'.repeat(PASSWORD_MIN_LENGTH))).toBeNull();
  });

  it.each([
    ['short', serverMessages.passwordTooShort(PASSWORD_MIN_LENGTH)],
    ['x'.repeat(PASSWORD_MAX_LENGTH + 1), serverMessages.passwordTooLong(PASSWORD_MAX_LENGTH)],
    ['demo-medic1', serverMessages.passwordUnchanged],
    ['MEDIC1-forever', serverMessages.passwordContainsUsername],
    ['Password123', serverMessages.passwordTooCommon],
    ['Firefighter', serverMessages.passwordTooCommon],
  ])('refuses password #%#', (password, message) => {
    expect(check(password)).toBe(message);
  });
});
