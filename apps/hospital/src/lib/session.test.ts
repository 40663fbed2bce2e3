import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, getSession, isExpired, setSession, subscribeSession } from './session';

describe('session (sessionStorage)', () => {
  beforeEach(() => clearSession());

  it('keeps the token in sessionStorage, not localStorage', () => {
    setSession({ token: 't', expirationDate: '2099-01-01T00:00:00.000Z' });
    expect(getSession()?.token).toBe('t');
    expect(sessionStorage.length).toBe(1);
    expect(localStorage.length).toBe(0);
  });

  it('drops an expired token', () => {
    setSession({ token: 't', expirationDate: '2000-01-01T00:00:00.000Z' });
    expect(getSession()).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });

  it('tells subscribers when the session changes', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeSession(listener);
    setSession({ token: 't', expirationDate: '2099-01-01T00:00:00.000Z' });
    clearSession();
    unsubscribe();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('treats an unreadable expiry as expired', () => {
    expect(isExpired({ token: 't', expirationDate: 'soon' })).toBe(true);
  });
});
