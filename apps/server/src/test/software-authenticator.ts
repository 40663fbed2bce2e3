/**
 * A software WebAuthn authenticator for API tests (the browser test uses Chromium's virtual one): an
 * ES256 key pair, "none" attestation, user presence and verification flags, a signature counter that
 * moves on with each use. `options` are the JSON options the server handed out.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (bytes: Uint8Array | Buffer): string => isoBase64URL.fromBuffer(Uint8Array.from(bytes));
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** Flags: UP (user present) 0x01, UV (user verified) 0x04, AT (attested credential data) 0x40. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftwareAuthenticator {
  credentialId: string;
  counter: number;
  register(
    options: Record<string, unknown>,
    init?: { origin?: string; userVerified?: boolean },
  ): Record<string, unknown>;
  assert(
    options: Record<string, unknown>,
    init?: { origin?: string; userVerified?: boolean; counter?: number },
  ): Record<string, unknown>;
}

export function softwareAuthenticator(rpId: string, defaultOrigin: string): SoftwareAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credId = randomBytes(32);
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Uint8Array.from(Buffer.from(jwk.x ?? '', 'base64url'))],
      [-3, Uint8Array.from(Buffer.from(jwk.y ?? '', 'base64url'))],
    ]),
  );
  const state: SoftwareAuthenticator = {
    credentialId: b64(credId),
    counter: 0,
    register(options, init = {}) {
      const clientData = Buffer.from(
        JSON.stringify({
          type: 'webauthn.create',
          challenge: options.challenge,
          origin: init.origin ?? defaultOrigin,
          crossOrigin: false,
        }),
      );
      const flags = UP | AT | (init.userVerified === false ? 0 : UV);
      const credLen = Buffer.alloc(2);
      credLen.writeUInt16BE(credId.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([flags]),
        u32(state.counter),
        Buffer.alloc(16),
        credLen,
        credId,
        Buffer.from(cose),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', Uint8Array.from(authData)],
        ]),
      );
      return {
        id: state.credentialId,
        rawId: state.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: b64(clientData),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    assert(options, init = {}) {
      state.counter = init.counter ?? state.counter + 1;
      const clientData = Buffer.from(
        JSON.stringify({
          type: 'webauthn.get',
          challenge: options.challenge,
          origin: init.origin ?? defaultOrigin,
          crossOrigin: false,
        }),
      );
      const flags = UP | (init.userVerified === false ? 0 : UV);
      const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), u32(state.counter)]);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), privateKey as KeyObject);
      return {
        id: state.credentialId,
        rawId: state.credentialId,
        type: 'public-key',
        response: { clientDataJSON: b64(clientData), authenticatorData: b64(authData), signature: b64(signature) },
        clientExtensionResults: {},
      };
    },
  };
  return state;
}
