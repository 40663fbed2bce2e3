import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock.js';
import { cachedHash } from '../../test/app.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/databases.js';
import { seedDemoData } from '../../seed/seed.js';
import { createAuthRepository } from './auth.repository.js';

const dialects = await testDialects();

describe.each(dialects)('auth repository on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemoData(database.db, { clock: systemClock, hashPassword: cachedHash });
  });
  afterAll(() => database.destroy());

  it('creates, finds and revokes sessions; revokes all others but one', async () => {
    const repo = createAuthRepository(database.db);
    const base = {
      userId: 'user-medic1',
      createdAt: '2026-11-21T12:00:00.000Z',
      expiresAt: '2026-11-22T00:00:00.000Z',
      client: 'ems/web',
    };
    for (const jti of ['s1', 's2', 's3']) await repo.createSession({ ...base, jti });
    expect(await repo.findSession('s1')).toEqual({
      jti: 's1',
      userId: 'user-medic1',
      expiresAt: base.expiresAt,
      revokedAt: null,
      client: 'ems/web',
      mfaAt: null,
      mfaEnrolled: false,
    });
    expect(await repo.findSession('nope')).toBeNull();
    expect(await repo.countLiveSessions('user-medic1', '2026-11-21T13:00:00.000Z')).toBe(3);
    expect(await repo.countLiveSessions('user-medic1', '2026-11-22T01:00:00.000Z')).toBe(0);

    await repo.revokeSession('s1', '2026-11-21T12:30:00.000Z');
    expect((await repo.findSession('s1'))?.revokedAt).toBe('2026-11-21T12:30:00.000Z');
    expect(await repo.revokeOtherSessions('user-medic1', 's3', '2026-11-21T12:40:00.000Z')).toBe(1);
    expect((await repo.findSession('s3'))?.revokedAt).toBeNull();
    expect(await repo.countLiveSessions('user-medic1', '2026-11-21T13:00:00.000Z')).toBe(1);
  });

  it('counts sign-in failures per account within the window, restarts after it, clears on demand', async () => {
    const repo = createAuthRepository(database.db);
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 21, 12, minute)).toISOString();
    const windowStart = (minute: number) => at(minute - 15);
    const failuresSince = async (key: string, start: string) => (await repo.failureState(key, start))?.failures ?? 0;
    await repo.recordFailure('medic1', at(0), windowStart(0));
    await repo.recordFailure('medic1', at(1), windowStart(1));
    await repo.recordFailure('medic1', at(2), windowStart(2));
    expect(await failuresSince('medic1', windowStart(3))).toBe(3);
    expect(await failuresSince('medic2', windowStart(3))).toBe(0);
    // 20 minutes on, the window that started at minute 0 has closed.
    expect(await failuresSince('medic1', windowStart(20))).toBe(0);
    await repo.recordFailure('medic1', at(20), windowStart(20));
    expect(await failuresSince('medic1', windowStart(21))).toBe(1);
    expect((await repo.failureState('medic1', windowStart(21)))?.lastFailedAt).toBe(at(20));
    await repo.clearFailures('medic1');
    expect(await failuresSince('medic1', windowStart(21))).toBe(0);
  });

  it('remembers the addresses an account signed in from, for a time', async () => {
    const repo = createAuthRepository(database.db);
    await repo.rememberAddress('user-medic1', '10.0.0.1', '2026-11-21T12:00:00.000Z');
    expect(await repo.isKnownAddress('user-medic1', '10.0.0.1', '2026-11-01T00:00:00.000Z')).toBe(true);
    expect(await repo.isKnownAddress('user-medic1', '10.0.0.2', '2026-11-01T00:00:00.000Z')).toBe(false);
    expect(await repo.isKnownAddress('user-medic1', '10.0.0.1', '2026-11-22T00:00:00.000Z')).toBe(false);
    await repo.rememberAddress('user-medic1', '10.0.0.1', '2026-11-23T12:00:00.000Z');
    expect(await repo.isKnownAddress('user-medic1', '10.0.0.1', '2026-11-22T00:00:00.000Z')).toBe(true);
  });
});
