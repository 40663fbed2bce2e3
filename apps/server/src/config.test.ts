import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig, parseDuration } from './config.js';

describe('config', () => {
  it('has working defaults', () => {
    const result = parseConfig({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: null,
      tokenTtlMs: 12 * 3_600_000,
      brandName: 'Inbound',
      seedDemo: false,
      logLevel: 'info',
    });
    expect(result.config.dataDir).toBe(path.resolve('./data'));
    expect(result.config.crewDist).toMatch(/apps[/\\]crew[/\\]dist$/);
    expect(result.config.signInLimits.perAccount).toEqual({ max: 10, windowMs: 15 * 60_000 });
    // No third-party STUN by default (it would learn every caller's address): host candidates and TURN only.
    expect(result.config.iceServers).toEqual([]);
    expect(result.config.turn).toBeNull();
  });

  it('reads every variable', () => {
    const result = parseConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://u:p@db:5432/inbound',
      TOKEN_TTL: '30m',
      SEED_DEMO: 'true',
      ICE_SERVERS: '[{"urls":"turn:turn.example:3478","username":"u","credential":"c"}]',
      BRAND_NAME: 'TigerConnect',
      SIGNIN_LIMIT_PER_ADDRESS: '1000',
      SIGNIN_WINDOW_PER_ADDRESS: '10s',
      PUBLIC_URL: 'https://inbound.example/',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      LLM_MODEL: 'llama3',
      TRUST_PROXY: '1',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      port: 9000,
      trustProxy: 1,
      databaseUrl: 'postgres://u:p@db:5432/inbound',
      tokenTtlMs: 30 * 60_000,
      seedDemo: true,
      brandName: 'TigerConnect',
      publicUrl: 'https://inbound.example',
      llm: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', apiKey: null },
      signInLimits: { perAddress: { max: 1000, windowMs: 10_000 } },
    });
    expect(result.config.iceServers[0]!.urls).toBe('turn:turn.example:3478');
  });

  it('reads MAP_TILE_URL and refuses templates the CSP cannot name', () => {
    const ok = parseConfig({ MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' });
    expect(ok.ok && ok.config.mapTileUrl).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    const unset = parseConfig({});
    expect(unset.ok && unset.config.mapTileUrl).toBeNull();
    for (const bad of [
      'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
      'https://tile.example.org/tiles.png',
      'ftp://tile.example.org/{z}/{x}/{y}.png',
      'not a url',
    ]) {
      const result = parseConfig({ MAP_TILE_URL: bad });
      expect(result.ok ? [] : result.problems, bad).toEqual([expect.stringMatching(/^MAP_TILE_URL must be/)]);
    }
  });

  it('runs several workers only on PostgreSQL and Redis, saying what is missing', () => {
    const sqlite = parseConfig({ WORKERS: '2' });
    expect(sqlite.ok).toBe(false);
    if (!sqlite.ok) {
      expect(sqlite.problems).toEqual([
        'WORKERS=2 needs DATABASE_URL (PostgreSQL): the SQLite database is one file that one process writes',
        'WORKERS=2 needs REDIS_URL: the processes share live messages, presence, rate limits and upload locks through Redis',
      ]);
    }
    const shared = parseConfig({
      WORKERS: '4',
      DATABASE_URL: 'postgres://db/inbound',
      REDIS_URL: 'redis://cache:6379',
      DATABASE_POOL_SIZE: '25',
    });
    expect(shared.ok && [shared.config.workers, shared.config.databasePoolSize]).toEqual([4, 25]);
    const single = parseConfig({});
    expect(single.ok && [single.config.workers, single.config.databasePoolSize]).toEqual([1, 10]);
    expect(parseConfig({ WORKERS: '0' }).ok).toBe(false);
  });

  it('lists every problem at once', () => {
    const result = parseConfig({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://nope',
      TOKEN_TTL: 'forever',
      ICE_SERVERS: '{not json',
      LOG_LEVEL: 'loud',
      SEED_DEMO: 'perhaps',
      JWT_SECRET: 'short',
      SIGNIN_LIMIT_PER_ACCOUNT: '0',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'TOKEN_TTL',
      'ICE_SERVERS',
      'LOG_LEVEL',
      'SEED_DEMO',
      'JWT_SECRET',
      'SIGNIN_LIMIT_PER_ACCOUNT',
    ]) {
      expect(text).toContain(name);
    }
    expect(result.problems).toHaveLength(8);
    expect(() => loadConfig({ PORT: 'eighty', TOKEN_TTL: 'x' })).toThrow(ConfigError);
  });

  it('parses durations', () => {
    expect(parseDuration('12h')).toBe(43_200_000);
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('0s')).toBeNull();
    expect(parseDuration('soon')).toBeNull();
  });

  it('generates the JWT secret once, keeps it in DATA_DIR with mode 600', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbound-config-'));
    try {
      const first = loadConfig({ DATA_DIR: dir });
      const second = loadConfig({ DATA_DIR: dir });
      expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
      expect(second.jwtSecret).toBe(first.jwtSecret);
      const file = path.join(dir, 'jwt-secret');
      expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40) }).jwtSecret).toBe('x'.repeat(40));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
