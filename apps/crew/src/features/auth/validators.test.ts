import { describe, expect, it } from 'vitest';
import { hasErrors, validateLogin } from './validators';
import { validateChangePassword } from '../settings/validators';

describe('validateLogin (spec §5)', () => {
  it.each([
    [
      { username: '', password: '' },
      { username: 'Please fill username', password: 'Please fill password' },
    ],
    [{ username: '   ', password: 'x' }, { username: 'Please fill username' }],
    [{ username: 'medic1', password: '' }, { password: 'Please fill password' }],
    [{ username: 'medic1', password: 'demo-medic1' }, {}],
  ])('%j → %j', (fields, expected) => {
    expect(validateLogin(fields)).toEqual(expected);
  });

  it('hasErrors ignores cleared fields', () => {
    expect(hasErrors({ username: undefined })).toBe(false);
    expect(hasErrors({ username: 'Please fill username' })).toBe(true);
  });
});

describe('validateChangePassword (spec §5)', () => {
  it('names every empty field, word for word (double space included)', () => {
    expect(validateChangePassword({ currentPassword: '', newPassword: '', verifyPassword: '' })).toEqual({
      currentPassword: 'Please fill in Current  Password',
      newPassword: 'Please fill in New Password',
      verifyPassword: 'Please fill in New Password Again',
    });
  });

  it('is quiet when all three are filled', () => {
    expect(validateChangePassword({ currentPassword: 'a', newPassword: 'b', verifyPassword: 'b' })).toEqual({});
  });
});
