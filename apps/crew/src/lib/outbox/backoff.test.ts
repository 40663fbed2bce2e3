import { MEDIA_UPLOAD_RETRY_MS } from '@inbound/contract';
import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_CAP_MS, RETRY_CAP_MS, classifyStatus, retryDelayMs } from './backoff';

describe('retryDelayMs', () => {
  it('doubles its range with each attempt, with jitter inside it, up to the 30 s cap', () => {
    const ranges = [1, 2, 3, 4, 5, 6, 7, 20].map((attempts) => [
      retryDelayMs('patchCase', attempts, 0),
      retryDelayMs('patchCase', attempts, 0.999999),
    ]);
    expect(ranges).toEqual([
      [500, 1_000],
      [1_000, 2_000],
      [2_000, 4_000],
      [4_000, 8_000],
      [8_000, 16_000],
      [15_000, 30_000],
      [15_000, 30_000],
      [15_000, 30_000],
    ]);
    for (let attempts = 1; attempts < 100; attempts += 1)
      expect(retryDelayMs('location', attempts, Math.random())).toBeLessThanOrEqual(RETRY_CAP_MS);
  });

  it('keeps the spec’s fixed 2 s for media', () => {
    expect([1, 5, 50].map((attempts) => retryDelayMs('media', attempts, 0.7))).toEqual([
      MEDIA_UPLOAD_RETRY_MS,
      MEDIA_UPLOAD_RETRY_MS,
      MEDIA_UPLOAD_RETRY_MS,
    ]);
  });

  it('waits at least the server’s Retry-After, within reason', () => {
    expect(retryDelayMs('patchCase', 1, 0, 10_000)).toBe(10_000);
    expect(retryDelayMs('patchCase', 6, 0.99, 1)).toBeGreaterThan(1);
    expect(retryDelayMs('patchCase', 1, 0, 24 * 3_600_000)).toBe(RETRY_AFTER_CAP_MS);
  });
});

describe('classifyStatus', () => {
  it.each([
    [200, 'delivered'],
    [201, 'delivered'],
    [204, 'delivered'],
    [401, 'hold'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [0, 'retry'],
    [304, 'retry'],
    [400, 'reject'],
    [403, 'reject'],
    [404, 'reject'],
    [409, 'reject'],
    [413, 'reject'],
    [422, 'reject'],
  ] as const)('%i → %s', (status, outcome) => {
    expect(classifyStatus(status)).toBe(outcome);
  });
});
