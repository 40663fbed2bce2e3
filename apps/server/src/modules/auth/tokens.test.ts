import { describe, expect, it } from 'vitest';
import { createTokenService } from './tokens.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
const TTL_MS = 60_000;

describe('token service', () => {
  const now = new Date('2026-01-01T10:00:00Z');

  it('verifies its own token again from memory, until the token expires', async () => {
    const tokens = createTokenService({ secret: SECRET, ttlMs: TTL_MS });
    const issued = await tokens.issue('user-1', now);
    const expected = { userId: 'user-1', jti: issued.jti };
    expect(await tokens.verify(issued.token, now)).toEqual(expected);
    expect(await tokens.verify(issued.token, new Date(now.getTime() + TTL_MS - 1_000))).toEqual(expected);
    // The remembered entry obeys the same clock as a full check: at exp the token is dead.
    expect(await tokens.verify(issued.token, new Date(now.getTime() + TTL_MS))).toBeNull();
    expect(await tokens.verify(issued.token, now)).toEqual(expected); // forgotten, then checked in full again
  });

  it('refuses a token whose signature or payload was changed, even after the original was verified', async () => {
    const tokens = createTokenService({ secret: SECRET, ttlMs: TTL_MS });
    const { token } = await tokens.issue('user-1', now);
    expect(await tokens.verify(token, now)).not.toBeNull();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const otherPayload = Buffer.from(JSON.stringify({ sub: 'user-2', jti: 'x', exp: 4_000_000_000 })).toString(
      'base64url',
    );
    expect(await tokens.verify(`${header}.${otherPayload}.${signature}`, now)).toBeNull();
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect(await tokens.verify(`${header}.${payload}.${flipped}`, now)).toBeNull();
  });

  it("refuses another secret's token", async () => {
    const other = createTokenService({ secret: `${SECRET}-other`, ttlMs: TTL_MS });
    const tokens = createTokenService({ secret: SECRET, ttlMs: TTL_MS });
    const { token } = await other.issue('user-1', now);
    expect(await other.verify(token, now)).not.toBeNull();
    expect(await tokens.verify(token, now)).toBeNull();
  });
});
