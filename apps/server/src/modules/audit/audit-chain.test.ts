import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, rowHash, rowHashText } from './audit-chain.js';

describe('rowHashText', () => {
  it('is the text rowHash hashes, around the number and the previous hash', () => {
    const row = {
      id: '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b',
      at: '2026-12-08T01:00:00.000Z',
      actor_id: null,
      action: 'case.age',
      entity_type: 'case',
      entity_id: 'c-1',
      case_id: 'c-1',
      // Quotes, a backslash, non-ASCII and a lone surrogate: JSON escapes what it must, UTF-8 the rest.
      detail: '{"note":"Ärztin \\\\ \u00e9\ud800"}',
    };
    const { before, after } = rowHashText('security_audit', 'case:3', row);
    for (const [seq, prev] of [
      [1, GENESIS_HASH],
      [12345, 'ab'.repeat(32)],
    ] as const) {
      const text = `${before}${seq},"${prev}",${after}`;
      expect(createHash('sha256').update(text).digest('hex')).toBe(rowHash('security_audit', 'case:3', seq, prev, row));
    }
  });
});
