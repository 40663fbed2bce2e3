/**
 * WebAuthn as a second factor of the hospital console (issue 17; decision 0032), with
 * @simplewebauthn/server. Ceremonies:
 *
 * - adding a key: the password again (counted like sign-in), then creation options; the browser's
 *   answer is checked against the stored challenge, this deployment's origin and RP ID (PUBLIC_URL),
 *   and user verification (the device's PIN/fingerprint/face, not only a touch) is required;
 * - signing in: after the right password the server hands out a challenge for the user's keys; the
 *   sign-in body carries the answer, checked with the stored public key and signature counter (a counter
 *   that does not move forward is refused: a cloned key).
 *
 * Challenges live in the database (any worker can check the answer), one outstanding per user and
 * purpose, expire after WEBAUTHN_CHALLENGE_TTL_MS and are deleted when used: single-use.
 */
import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Kysely } from 'kysely';
import {
  WEBAUTHN_CHALLENGE_TTL_MS,
  WEBAUTHN_MAX_CREDENTIALS,
  type WebAuthnCeremony,
  type WebAuthnCredential,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { parseJson } from '../../db/json.js';
import type { DB } from '../../db/schema.js';
import { conflict } from '../../errors.js';
import type { WebAuthnCredentialsTable } from './webauthn.schema.js';

/** Who the keys are bound to: the origin the browser shows and its host name (the RP ID). */
export interface RelyingParty {
  rpId: string;
  origin: string;
  rpName: string;
}

/**
 * From PUBLIC_URL (the origin the browser uses). Without it — the quick start on one machine — the
 * browser must open http://localhost:PORT: WebAuthn refuses IP addresses as RP ID.
 */
export function relyingPartyOf(publicUrl: string | null, port: number): RelyingParty {
  const origin = publicUrl ?? `http://localhost:${port}`;
  return { rpId: new URL(origin).hostname, origin: new URL(origin).origin, rpName: 'Inbound' };
}

export const CHALLENGE_GONE = 'The security key request expired or was already used. Start again.';

const credentialOf = (row: WebAuthnCredentialsTable): WebAuthnCredential => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

type Purpose = 'register' | 'signIn';

export function createWebAuthn({ db, clock, rp }: { db: Kysely<DB>; clock: Clock; rp: RelyingParty }) {
  const credentialsOf = (userId: string) =>
    db
      .selectFrom('webauthn_credentials')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  /** Stores the challenge (replacing the user's outstanding one of this purpose; dropping expired ones). */
  async function storeChallenge(userId: string, purpose: Purpose, challenge: string): Promise<string> {
    const now = clock.now();
    const id = randomUUID();
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webauthn_challenges').where('expires_at', '<=', now.toISOString()).execute();
      await trx
        .deleteFrom('webauthn_challenges')
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .execute();
      await trx
        .insertInto('webauthn_challenges')
        .values({
          id,
          user_id: userId,
          purpose,
          challenge,
          expires_at: new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MS).toISOString(),
        })
        .execute();
    });
    return id;
  }

  /** The challenge, deleted as it is read: only one answer ever uses it. Null: unknown, used, expired or not the user's. */
  async function consumeChallenge(id: string, userId: string, purpose: Purpose): Promise<string | null> {
    const row = await db
      .selectFrom('webauthn_challenges')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row) return null;
    const deleted = await db.deleteFrom('webauthn_challenges').where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) return null;
    return row.expires_at > clock.now().toISOString() ? row.challenge : null;
  }

  return {
    rp,

    async count(userId: string): Promise<number> {
      const row = await db
        .selectFrom('webauthn_credentials')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async list(userId: string): Promise<WebAuthnCredential[]> {
      return (await credentialsOf(userId)).map(credentialOf);
    },

    /** Creation options for a new key of the user (password already checked by the caller). */
    async registrationOptions(user: { id: string; username: string; displayName: string }): Promise<WebAuthnCeremony> {
      const existing = await credentialsOf(user.id);
      if (existing.length >= WEBAUTHN_MAX_CREDENTIALS)
        throw conflict(`You have ${WEBAUTHN_MAX_CREDENTIALS} security keys: remove one before adding another.`);
      const options = await generateRegistrationOptions({
        rpName: rp.rpName,
        rpID: rp.rpId,
        userName: user.username,
        userDisplayName: user.displayName,
        userID: Uint8Array.from(Buffer.from(user.id, 'utf8')),
        attestationType: 'none',
        timeout: WEBAUTHN_CHALLENGE_TTL_MS,
        excludeCredentials: existing.map((c) => ({
          id: c.id,
          transports: parseJson<AuthenticatorTransport[]>(c.transports, []),
        })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      });
      const challengeId = await storeChallenge(user.id, 'register', options.challenge);
      return { challengeId, options: { ...options } };
    },

    /**
     * Checks the browser's answer and stores the key. Null when the challenge is gone; throws 400-worthy
     * `false` as null too — the caller answers one message for both.
     */
    async register(
      userId: string,
      body: { challengeId: string; name: string; response: RegistrationResponseJSON },
    ): Promise<{ credential: WebAuthnCredential } | 'challengeGone' | 'invalid' | 'duplicate'> {
      const challenge = await consumeChallenge(body.challengeId, userId, 'register');
      if (challenge === null) return 'challengeGone';
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response: body.response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpId,
          requireUserVerification: true,
        });
      } catch {
        return 'invalid';
      }
      if (!verified.verified) return 'invalid';
      const { credential } = verified.registrationInfo;
      const taken = await db
        .selectFrom('webauthn_credentials')
        .select('id')
        .where('id', '=', credential.id)
        .executeTakeFirst();
      if (taken) return 'duplicate';
      const row: WebAuthnCredentialsTable = {
        id: credential.id,
        user_id: userId,
        name: body.name,
        public_key: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? body.response.response.transports ?? []),
        created_at: clock.now().toISOString(),
        last_used_at: null,
      };
      await db.insertInto('webauthn_credentials').values(row).execute();
      return { credential: credentialOf(row) };
    },

    /** Removes one of the user's keys; false when the user has no such key. */
    async remove(userId: string, credentialId: string): Promise<boolean> {
      const deleted = await db
        .deleteFrom('webauthn_credentials')
        .where('id', '=', credentialId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) === 1;
    },

    /** A sign-in challenge for the user's keys; null when the user has none. */
    async signInOptions(userId: string): Promise<WebAuthnCeremony | null> {
      const existing = await credentialsOf(userId);
      if (existing.length === 0) return null;
      const options = await generateAuthenticationOptions({
        rpID: rp.rpId,
        timeout: WEBAUTHN_CHALLENGE_TTL_MS,
        userVerification: 'required',
        allowCredentials: existing.map((c) => ({
          id: c.id,
          transports: parseJson<AuthenticatorTransport[]>(c.transports, []),
        })),
      });
      const challengeId = await storeChallenge(userId, 'signIn', options.challenge);
      return { challengeId, options: { ...options } };
    },

    /** Checks a sign-in answer: the challenge (once), the user's key, the signature, user verification, the counter. */
    async accept(
      userId: string,
      assertion: { challengeId: string; response: AuthenticationResponseJSON },
    ): Promise<boolean> {
      const challenge = await consumeChallenge(assertion.challengeId, userId, 'signIn');
      if (challenge === null) return false;
      const stored = await db
        .selectFrom('webauthn_credentials')
        .selectAll()
        .where('id', '=', assertion.response.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!stored) return false;
      const oldCounter = Number(stored.counter);
      let newCounter: number;
      try {
        const verified = await verifyAuthenticationResponse({
          response: assertion.response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpId,
          requireUserVerification: true,
          credential: {
            id: stored.id,
            publicKey: isoBase64URL.toBuffer(stored.public_key),
            counter: oldCounter,
            transports: parseJson<AuthenticatorTransport[]>(stored.transports, []),
          },
        });
        if (!verified.verified) return false;
        newCounter = verified.authenticationInfo.newCounter;
      } catch {
        // Wrong signature, origin, RP ID, no user verification, or a counter that did not move forward.
        return false;
      }
      // Two answers checked at once against the same counter: only the one that moves it on wins.
      const moved = await db
        .updateTable('webauthn_credentials')
        .set({ counter: newCounter, last_used_at: clock.now().toISOString() })
        .where('id', '=', stored.id)
        .where('counter', '=', oldCounter)
        .executeTakeFirst();
      return Number(moved.numUpdatedRows) === 1;
    },
  };
}

export type WebAuthn = ReturnType<typeof createWebAuthn>;
