import { messages } from '@inbound/contract';
import type { FieldErrors } from '../auth/validators';

export interface ChangePasswordFields {
  currentPassword: string;
  newPassword: string;
  verifyPassword: string;
}

/** Spec §5: all three required, word-for-word messages (the double space is the spec's). */
export function validateChangePassword(fields: ChangePasswordFields): FieldErrors<ChangePasswordFields> {
  const errors: FieldErrors<ChangePasswordFields> = {};
  if (!fields.currentPassword) errors.currentPassword = messages.fillCurrentPassword;
  if (!fields.newPassword) errors.newPassword = messages.fillNewPassword;
  if (!fields.verifyPassword) errors.verifyPassword = messages.fillNewPasswordAgain;
  return errors;
}
