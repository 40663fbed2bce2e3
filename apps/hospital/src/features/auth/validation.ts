import { messages } from '@inbound/contract';

export interface SignInFields {
  username: string;
  password: string;
}
export type SignInErrors = Partial<Record<keyof SignInFields, string>>;

/** Both fields are required; the texts are the crew app's (spec §5), so staff see one wording everywhere. */
export function validateSignIn({ username, password }: SignInFields): SignInErrors {
  const errors: SignInErrors = {};
  if (username.trim() === '') errors.username = messages.fillUsername;
  if (password === '') errors.password = messages.fillPassword;
  return errors;
}
