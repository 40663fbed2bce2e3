import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config.js';
import { originAllowed } from './origin.js';

describe('origin allowlist', () => {
  const allowed = { publicUrl: 'https://inbound.example.org/', extra: ['http://localhost:5173'] };

  it('allows the server itself, PUBLIC_URL and the configured origins; refuses others', () => {
    expect(originAllowed('http://10.0.0.5:8080', 'http://10.0.0.5:8080', allowed)).toBe(true);
    expect(originAllowed('https://inbound.example.org', 'http://internal:8080', allowed)).toBe(true);
    expect(originAllowed('http://localhost:5173', 'http://localhost:8080', allowed)).toBe(true);
    expect(originAllowed('https://evil.example.com', 'http://localhost:8080', allowed)).toBe(false);
    expect(originAllowed('https://inbound.example.org.evil.com', 'http://localhost:8080', allowed)).toBe(false);
    expect(originAllowed('null', 'http://localhost:8080', allowed)).toBe(false);
    expect(originAllowed('file://x', 'http://localhost:8080', allowed)).toBe(false);
  });

  it('compares scheme, host and port with the server itself, not the host alone', () => {
    expect(originAllowed('http://10.0.0.5:8443', 'https://10.0.0.5:8443', allowed)).toBe(false);
    expect(originAllowed('https://10.0.0.5:8443', 'https://10.0.0.5:8443', allowed)).toBe(true);
    expect(originAllowed('https://10.0.0.5', 'https://10.0.0.5:8443', allowed)).toBe(false);
  });

  it('lets an upgrade without Origin through (no browser sent it)', () => {
    expect(originAllowed(undefined, 'http://localhost:8080', allowed)).toBe(true);
  });

  it('reads REALTIME_ALLOWED_ORIGINS as a list of origins and refuses anything else', () => {
    const ok = parseConfig({ REALTIME_ALLOWED_ORIGINS: 'http://localhost:5173/, https://console.example.org' });
    expect(ok.ok && ok.config.realtime.allowedOrigins).toEqual([
      'http://localhost:5173',
      'https://console.example.org',
    ]);
    const bad = parseConfig({ REALTIME_ALLOWED_ORIGINS: 'console.example.org' });
    expect(bad.ok ? [] : bad.problems).toEqual([
      'REALTIME_ALLOWED_ORIGINS must list origins such as https://inbound.example.org',
    ]);
  });
});
