import { describe, expect, it } from 'vitest';
import {
  clientErrorReport,
  createFieldErrorReporter,
  routePatternOf,
  sourcePositionOf,
} from './client-error-reporter.js';
import { ClientErrorReport } from './client-errors.js';

const PHI = ['John', 'Smith', '1950', 'stroke', 'Main St', '555-0100'];

describe('client error reports carry ids and codes only', () => {
  it('keeps the class, the source position and the route pattern of an error, never its message', () => {
    const error = new TypeError(
      "Cannot read properties of undefined (reading 'John Smith, DOB 1950-01-01, stroke, 12 Main St, 555-0100')",
    );
    error.stack = `TypeError: ${error.message}\n    at render (https://inbound.example.org/assets/index-Bx1.js?v=John:1:2345)\n    at https://inbound.example.org/assets/vendor.js:3:4`;
    const report = clientErrorReport({
      app: 'crew',
      appVersion: '1.0.234',
      deviceId: 'd3b07384d113',
      kind: 'uncaught',
      error,
      pathname: '/case/7f9c2ba4-e88f-4f2b-9a0c-123456789abc/media',
      at: new Date('2026-11-25T10:00:00Z'),
    });
    expect(report).toEqual({
      app: 'crew',
      appVersion: '1.0.234',
      deviceId: 'd3b07384d113',
      kind: 'uncaught',
      name: 'TypeError',
      where: '/assets/index-Bx1.js:1:2345',
      route: '/case/:id/media',
      at: '2026-11-25T10:00:00.000Z',
    });
    const text = JSON.stringify(report);
    for (const word of PHI) expect(text).not.toContain(word);
    expect(ClientErrorReport.safeParse(report).success).toBe(true);
  });

  it('drops what is not an id or a code: a thrown string, a custom error name, ids with spaces', () => {
    const custom = new Error('x');
    custom.name = 'Patient John Smith';
    const report = clientErrorReport({
      app: 'hospital',
      appVersion: 'dev build John',
      deviceId: 'dev1',
      kind: 'outbox_refused',
      error: custom,
      code: 'bad_request',
      ids: { item: '0b8e2c1a-key', case: 'John Smith', request: 'req-1' },
    });
    expect(report.name).toBe('Error');
    expect(report.appVersion).toBe('0');
    expect(report.code).toBe('bad_request');
    expect(report.ids).toEqual({ item: '0b8e2c1a-key', request: 'req-1' });
    for (const word of PHI) expect(JSON.stringify(report)).not.toContain(word);
    expect(
      clientErrorReport({ app: 'crew', appVersion: '1', deviceId: 'd', kind: 'uncaught', error: 'John Smith' }).name,
    ).toBe('Error');
  });

  it('the schema refuses a free-text field anywhere', () => {
    const base = {
      app: 'crew',
      appVersion: '1.0.0',
      deviceId: 'd1',
      kind: 'uncaught',
      name: 'TypeError',
      at: '2026-11-25T10:00:00.000Z',
    };
    expect(ClientErrorReport.safeParse(base).success).toBe(true);
    expect(ClientErrorReport.safeParse({ ...base, message: 'John Smith' }).success).toBe(false);
    expect(ClientErrorReport.safeParse({ ...base, name: 'John Smith' }).success).toBe(false);
    expect(ClientErrorReport.safeParse({ ...base, code: 'DOB 1950' }).success).toBe(false);
    expect(ClientErrorReport.safeParse({ ...base, route: '/case/John Smith' }).success).toBe(false);
    expect(ClientErrorReport.safeParse({ ...base, ids: { note: 'x' } }).success).toBe(false);
    expect(sourcePositionOf('at foo (bar)')).toBeUndefined();
    expect(routePatternOf('/hospital/cases/ab12')).toBe('/hospital/cases/:id');
  });
});

describe('the apps’ reporter', () => {
  it('keeps a device id, reports an error once a minute and never more than the per-device limit', async () => {
    const stored = new Map<string, string>();
    const sent: ClientErrorReport[] = [];
    let time = 0;
    const reporter = createFieldErrorReporter({
      app: 'crew',
      appVersion: '1.0.234',
      storage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
      send: (_path, report) => {
        sent.push(report);
        return Promise.resolve();
      },
      pathname: () => '/case',
      now: () => time,
    });
    reporter('uncaught', { error: new TypeError('John Smith') });
    reporter('uncaught', { error: new TypeError('John Smith') });
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 20; i++) reporter('outbox_refused', { code: 400 + i, ids: { item: `k${i}` } });
    expect(sent).toHaveLength(10);
    time += 61_000;
    reporter('uncaught', { error: new TypeError('again') });
    expect(sent).toHaveLength(11);
    expect(new Set(sent.map((r) => r.deviceId)).size).toBe(1);
    expect(JSON.stringify(sent)).not.toContain('John');
    for (const report of sent) expect(ClientErrorReport.safeParse(report).success).toBe(true);
  });
});
