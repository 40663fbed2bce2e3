import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './time-ordered-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  it('is a UUIDv7 carrying the time it was made', () => {
    const at = Date.UTC(2026, 10, 29, 2, 30);
    const id = timeOrderedId(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it('sorts by the time the ids were made, as text', () => {
    const times = [0, 1, 255, 256, 65_535, 65_536, Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, 2 ** 48 - 1];
    const ids = times.map((at) => timeOrderedId(at));
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps the random bits apart within one millisecond', () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 10_000 }, () => timeOrderedId(at)));
    expect(ids.size).toBe(10_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(UUID_V7);
  });
});
