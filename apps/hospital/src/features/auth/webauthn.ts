/**
 * The browser side of WebAuthn (issue 17; decision 0032): the server's options go to the browser's
 * authenticator through @simplewebauthn/browser, and its answer back to the server as JSON.
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { WebAuthnCeremony } from '@inbound/contract';

export const webAuthnAvailable = (): boolean => browserSupportsWebAuthn();

/** The browser's own errors say little to a nurse: one sentence for the usual cases. */
function readable(error: unknown): Error {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return new Error('The security key was not used in time, or the request was cancelled. Try again.');
  if (name === 'InvalidStateError') return new Error('This security key is already registered.');
  return new Error('This browser could not use the security key. Use a code from your authenticator app.');
}

/** The extension results as a plain object (the contract's JSON record). */
const plain = <T extends { clientExtensionResults: object }>(
  response: T,
): Omit<T, 'clientExtensionResults'> & { clientExtensionResults: Record<string, unknown> } => ({
  ...response,
  clientExtensionResults: Object.fromEntries(Object.entries(response.clientExtensionResults)),
});

export async function createCredential(ceremony: WebAuthnCeremony) {
  try {
    return plain(
      await startRegistration({
        optionsJSON: ceremony.options as unknown as PublicKeyCredentialCreationOptionsJSON,
      }),
    );
  } catch (error) {
    throw readable(error);
  }
}

export async function getAssertion(ceremony: WebAuthnCeremony) {
  try {
    return plain(
      await startAuthentication({
        optionsJSON: ceremony.options as unknown as PublicKeyCredentialRequestOptionsJSON,
      }),
    );
  } catch (error) {
    throw readable(error);
  }
}
