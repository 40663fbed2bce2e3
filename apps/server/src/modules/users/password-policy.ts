/**
 * What a new password must be. Length matters most (NIST SP 800-63B); the common-password list stops
 * the handful of choices every guessing attack tries first. No composition rules: they make passwords
 * harder to remember without making them harder to guess.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, serverMessages } from '@inbound/contract';

const COMMON_PASSWORDS = new Set([
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

export interface NewPasswordCheck {
  username: string;
  currentPassword: string;
  newPassword: string;
}

/** The reason the new password is refused, or null when it is acceptable. */
export function passwordProblem({ username, currentPassword, newPassword }: NewPasswordCheck): string | null {
  if (newPassword.length < PASSWORD_MIN_LENGTH) return serverMessages.passwordTooShort(PASSWORD_MIN_LENGTH);
  if (newPassword.length > PASSWORD_MAX_LENGTH) return serverMessages.passwordTooLong(PASSWORD_MAX_LENGTH);
  if (newPassword === currentPassword) return serverMessages.passwordUnchanged;
  if (username.length > 0 && newPassword.toLowerCase().includes(username.toLowerCase())) {
    return serverMessages.passwordContainsUsername;
  }
  if (COMMON_PASSWORDS.has(newPassword.toLowerCase())) return serverMessages.passwordTooCommon;
  return null;
}
