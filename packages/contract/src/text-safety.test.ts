import { describe, expect, it } from 'vitest';
import { describeUnsafeText, findUnsafeText, MAX_JSON_DEPTH } from './text-safety.js';

describe('text safety', () => {
  it('accepts ordinary text, tab, line feed and carriage return, and astral characters', () => {
    expect(findUnsafeText({ a: 'Stroke\talert\r\n', b: ['😀 ok', 3, null, true], c: { d: 'é' } })).toBeNull();
    expect(findUnsafeText({ at: '2026-11-25T10:00:00.000Z', born: '1950-01-01' })).toBeNull();
  });

  it.each([
    [{ a: 'x\u0000' }, 'a: control characters are not allowed'],
    [{ a: [1, { b: '\u001f' }] }, 'a.1.b: control characters are not allowed'],
    [{ ['k\u0000']: 1 }, 'k?: control characters are not allowed'],
    [{ a: '\ud800' }, 'a: is not well-formed Unicode'],
    [{ a: 'x\udc00' }, 'a: is not well-formed Unicode'],
    [{ at: '0000-01-01T00:00:00.000Z' }, 'at: must be a time in the years 2000 to 2099'],
    [{ at: '9999-12-31T23:59:59Z' }, 'at: must be a time in the years 2000 to 2099'],
    [{ at: '+275760-09-13T00:00:00.000Z' }, 'at: must be a time in the years 2000 to 2099'],
  ])('finds %j', (value, message) => {
    const found = findUnsafeText(value);
    expect(found && describeUnsafeText('', found)).toBe(message);
  });

  it('refuses nesting past the limit without recursion', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnsafeText(deep)?.problem).toBe(`is nested more than ${MAX_JSON_DEPTH} deep`);
  });
});
