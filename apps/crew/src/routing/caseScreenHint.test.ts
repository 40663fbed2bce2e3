import { afterEach, describe, expect, it, vi } from 'vitest';
import { caseScreenExpected, rememberCaseScreen } from './caseScreenHint';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('case screen hint', () => {
  it('is set while a case is open and cleared when it is not', () => {
    expect(caseScreenExpected()).toBe(false);
    rememberCaseScreen(true);
    expect(caseScreenExpected()).toBe(true);
    expect(localStorage.getItem('inbound.caseScreenExpected')).toBe('1');
    rememberCaseScreen(false);
    expect(caseScreenExpected()).toBe(false);
    expect(localStorage.length).toBe(0);
  });

  it('is simply absent when storage refuses', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(() => rememberCaseScreen(true)).not.toThrow();
    expect(caseScreenExpected()).toBe(false);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(caseScreenExpected()).toBe(false);
  });
});
