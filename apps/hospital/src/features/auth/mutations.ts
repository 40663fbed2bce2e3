import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/client';
import { clearSession, setSession } from '../../lib/session';
import type { SignInFields } from './validation';
import { getAssertion } from './webauthn';

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      username,
      password,
      code,
      securityKey,
    }: SignInFields & { code?: string; securityKey?: boolean }) => {
      if (securityKey) {
        // The password first (the server hands out a challenge for this user's keys), then the key.
        const ceremony = await api('webAuthnSignInOptions', { body: { username: username.trim(), password } });
        const response = await getAssertion(ceremony);
        return api('signIn', {
          body: {
            username: username.trim(),
            password,
            twiageClient: 'hospital',
            platform: 'web',
            webauthn: { challengeId: ceremony.challengeId, response },
          },
        });
      }
      const typed = code?.replace(/\s/g, '') ?? '';
      // Six digits: the authenticator's code; anything else typed there: a recovery code.
      const factor = typed === '' ? {} : /^\d{6}$/.test(typed) ? { otp: typed } : { recoveryCode: typed };
      return api('signIn', {
        body: { username: username.trim(), password, twiageClient: 'hospital', platform: 'web', ...factor },
      });
    },
    onSuccess: ({ authorizationToken }) => {
      queryClient.clear();
      localStorage.removeItem('inbound.console.locked'); // a lock left by the previous person (IdleLock.tsx)
      setSession(authorizationToken);
    },
  });
}

/**
 * Signs out on the server (revoking the token) and always locally, even when the server cannot be reached:
 * on a shared screen the next person must never inherit this session.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('signOut').catch(() => undefined),
    onSettled: () => {
      clearSession();
      queryClient.clear();
    },
  });
}
