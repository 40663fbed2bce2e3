import { describe, expect, it } from 'vitest';
import { describeUnsafeText, findUnsafeText, MAX_JSON_DEPTH } from './text-safety.js';

describe('text safety', () => {
  it('accepts ordinary text, tab, line feed and carriage return, and astral characters', () => {
    expect(findUnsafeText({ a: 'Stroke\talert\r\n', b: ['😀 ok', 3, null, true], c: { d: 'é' } })).toBeNull();
  });

  it.each([
    [{ a: 'x\u0000' }, 'a: control characters are not allowed'],
    [{ a: [1, { b: '\u001f' }] }, 'a.1.b: control characters are not allowed'],
    [{ ['k\u0000']: 1 }, 'k?: control characters are not allowed'],
    [{ a: '\ud800' }, 'a: is not well-formed Unicode'],
    [{ a: 'x\udc00' }, 'a: is not well-formed Unicode'],
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
