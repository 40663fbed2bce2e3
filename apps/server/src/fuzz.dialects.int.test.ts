/**
 * Fuzzing in CI (issue 17): fast-check sends FUZZ_INPUTS (20,000 by default) hostile requests per
 * database over every route of the contract — bodies shaped by the route's own schema (its field names)
 * with hostile values (control characters, lone surrogates, year 0000, 1e308, deep nesting, wrong
 * types), hostile path parameters and query strings, signed in as a crew, ED staff, an admin or no one —
 * and hostile frames over a real /realtime socket. Not one answer may be a 5xx and nothing may be logged
 * at error level, on SQLite and on PostgreSQL (a database made and dropped per run).
 */
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, routes, type RouteDef } from '@inbound/contract';
import { IDS } from './seed/demo-data.js';
import { createTestApp, type TestApp } from './test/app.js';
import { RIVERSIDE_TRUCK, addUser, startCase } from './test/crew-api.js';
import { testDialects } from './test/databases.js';
import { openAuthenticated } from './modules/realtime/test-client.js';

const dialects = await testDialects();
const INPUTS = Number(process.env.FUZZ_INPUTS ?? 20_000);
// Over a real socket: 200 per database (2,000 once failed under a load average of 25, cause not found);
// the broad frame fuzz (20,000 per run) is in process: modules/realtime/frame-fuzz.test.ts.
const FRAMES = 200;
// Signing out would end the token the rest of the run uses; the route itself is covered by auth tests.
const SKIPPED = new Set<string>([routes.signOut.path]);

const allRoutes = (Object.values(routes) as RouteDef[]).filter((route) => !SKIPPED.has(route.path));

/** The field names of a zod object schema (through zod 4's `shape`), for bodies that get past "required". */
function fieldNames(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\u001b[31m',
    '\ud800',
    '\udfff',
    '0000-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '2026-11-25T10:00:00.000Z',
    '',
    ' ',
    "' or 1=1 --",
    '../../etc/passwd',
    '%00',
    'x'.repeat(5_000),
    IDS.agencies.riverside,
    IDS.hospitals.riversideRegional,
    'user-medic1',
  ),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -1e308, 0, -1, 2 ** 53, 1.5, Number.MAX_SAFE_INTEGER),
);
const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;
/**
 * A body nested up to 3,000 arrays deep, sent as its JSON text. It is generated as text, not as nested
 * arrays: the server imports pdfjs-dist's legacy build, whose core-js polyfill replaces the global
 * JSON.stringify with one that overflows the stack long before 3,000 levels, and fast-check's own report
 * of a nested counterexample overflows too.
 */
class DeepNesting {
  constructor(readonly depth: number) {}
  get json(): string {
    return `${'['.repeat(this.depth)}"x"${']'.repeat(this.depth)}`;
  }
  toString(): string {
    return `(["x"] nested ${this.depth} deep)`;
  }
}
const deepNesting = fc.integer({ min: 30, max: 3_000 }).map((depth) => new DeepNesting(depth));

/** A body for the route: its own field names with hostile values, or anything at all. */
function bodyFor(route: RouteDef): fc.Arbitrary<unknown> {
  const names = fieldNames(route.body);
  const shaped =
    names.length === 0
      ? hostileValue
      : fc.record(Object.fromEntries(names.map((name) => [name, fc.oneof(leaf, hostileValue)])), {
          requiredKeys: [],
        });
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 2, arbitrary: hostileValue },
    { weight: 1, arbitrary: deepNesting },
  );
}

/** Percent-encoded; a lone surrogate (which encodeURIComponent refuses) as its raw UTF-8-ish bytes. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

const pathPart = fc.oneof(
  hostileString.map(encode),
  fc.constantFrom('%00', '%ff', '..', '%2e%2e', 'case-1', '%E0%A4%A'),
);

function urlFor(route: RouteDef, parts: string[], query: string): string {
  let i = 0;
  const path = route.path.replace(/:[A-Za-z]+/g, () => parts[i++ % parts.length] || 'x');
  return query ? `${path}?${query}` : path;
}

const bodies = allRoutes.map(bodyFor);

const request = fc.nat({ max: allRoutes.length - 1 }).chain((routeIndex) =>
  fc.record({
    routeIndex: fc.constant(routeIndex),
    body: bodies[routeIndex]!,
    who: fc.constantFrom('medic1', 'ed1', 'admin', 'nobody'),
    parts: fc.array(pathPart, { minLength: 1, maxLength: 3 }),
    query: fc.oneof(
      fc.constant(''),
      fc
        .dictionary(
          fc.constantFrom('cursor', 'fields', 'limit', 'tagId', 'q', 'entityType', 'since', 'access'),
          hostileString,
          {
            maxKeys: 3,
          },
        )
        .map((entries) =>
          Object.entries(entries)
            .map(([key, value]) => `${key}=${encode(String(value))}`)
            .join('&'),
        ),
    ),
    bodySeed: fc.nat(),
    rawBody: fc.oneof(
      { weight: 9, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    ),
  }),
);

describe.each(dialects)('fuzz on %s', (dialect) => {
  let t: TestApp;
  let tokens: Record<string, string | null>;
  let caseId: string;
  const errorLines: string[] = [];
  const serverErrors: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          if ((JSON.parse(line) as { level: number }).level >= 50) errorLines.push(line.slice(0, 2_000));
        }
        done();
      },
    });
    t = await createTestApp({
      dialect,
      logStream,
      env: {
        LOG_LEVEL: 'warn',
        // The fuzzer is one address sending thousands of requests: the limits would answer most of them 429.
        SIGNIN_LIMIT_PER_ADDRESS: '1000000',
        REALTIME_MAX_MESSAGES_PER_SECOND: '100000',
      },
    });
    tokens = {
      medic1: await t.signIn('medic1'),
      ed1: await t.signIn('ed1'),
      admin: await t.signIn('admin'),
      nobody: null,
    };
    caseId = (await startCase(t, tokens.medic1!, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it(
    `answers ${INPUTS} hostile requests over every route without a 5xx or an error logged`,
    { timeout: 900_000 },
    async () => {
      let sent = 0;
      const started = Date.now();
      /** What the first failing request was, bounded: a generated body can be nested thousands deep. */
      let failure: string | undefined;
      const describeRequest = (method: string, url: string, payload: string | undefined, who: string) =>
        `${method} ${url.slice(0, 300)} as ${who}, body ${payload === undefined ? '(none)' : `${payload.length} chars: ${payload.slice(0, 300)}`}`;
      await fc.assert(
        fc.asyncProperty(request, async (input) => {
          const route = allRoutes[input.routeIndex]!;
          const parts = input.parts.map((part, i) => (i === 0 && input.bodySeed % 3 === 0 ? caseId : part));
          const url = urlFor(route, parts, input.query);
          const body = input.body;
          const token = tokens[input.who];
          const headers: Record<string, string> = {
            'content-type': 'application/json',
            'idempotency-key': `fuzz-${input.bodySeed}-${sent}`,
            'created-at': '2026-11-25T10:00:00.000Z',
          };
          if (token) headers.authorization = authorizationHeader(token);
          const payload =
            input.rawBody ??
            (route.method === 'GET' ? undefined : body instanceof DeepNesting ? body.json : JSON.stringify(body));
          const described = describeRequest(route.method, url, payload, input.who);
          const errorsBefore = errorLines.length;
          let res: Awaited<ReturnType<typeof t.app.inject>>;
          try {
            res = await t.app.inject({
              method: route.method,
              url,
              headers,
              ...(payload === undefined ? {} : { payload }),
            });
          } catch (error) {
            failure ??= `${described} → threw ${String(error).slice(0, 300)}`;
            return false;
          }
          sent++;
          if (res.statusCode >= 500) {
            serverErrors.push(`${route.method} ${url.slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
            failure ??= `${described} → ${res.statusCode} ${res.body.slice(0, 300)}`;
            return false;
          }
          if (errorLines.length > errorsBefore) {
            failure ??= `${described} → ${res.statusCode}, logged at error level: ${errorLines[errorsBefore]!.slice(0, 500)}`;
            return false;
          }
          return true;
        }),
        {
          numRuns: INPUTS,
          endOnFailure: true,
          // The default report stringifies the counterexample, which overflows the stack on a deeply nested
          // body: report the bounded description of the failing request instead.
          asyncReporter: async (details) => {
            if (!details.failed) return;
            throw new Error(
              `fuzz ${dialect} failed after ${details.numRuns} runs (seed ${details.seed}, path ${details.counterexamplePath}): ` +
                (failure ??
                  (details.errorInstance
                    ? String((details.errorInstance as Error).stack ?? details.errorInstance).slice(0, 3000)
                    : 'no description')),
            );
          },
        },
      );
      console.info(
        `fuzz ${dialect}: ${sent} requests over ${allRoutes.length} routes in ${Date.now() - started} ms, 5xx: ${serverErrors.length}`,
      );
      expect(serverErrors).toEqual([]);
      expect(errorLines).toEqual([]);
    },
  );

  it(`answers ${FRAMES} hostile real-time frames with an error frame or a close, never a crash`, async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/realtime`;
    // A crew of its own: the request fuzz above may disable medic1 or reset its password (its id is among
    // the hostile inputs), which ends medic1's sessions and would close this socket on its auth frame.
    await addUser(t, 'framefuzz', { roles: ['crew'], memberOf: [IDS.agencies.riverside] });
    const crewToken = await t.signIn('framefuzz');
    let socket = await openAuthenticated(url, crewToken);
    const frame = fc.oneof(
      hostileValue.map((value) => JSON.stringify(value)),
      fc
        .record(
          {
            type: fc.constantFrom(
              'subscribe',
              'unsubscribe',
              'ping',
              'auth',
              'ack',
              'typing',
              hostileString as fc.Arbitrary<string>,
            ),
            channel: fc.oneof(hostileString, fc.constant(`case:${caseId}`)),
            lastSeq: hostileNumber,
            token: hostileString,
          },
          { requiredKeys: [] },
        )
        .map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 100 }),
    );
    const frames = fc.sample(frame, { numRuns: FRAMES, seed: 17 });
    for (const text of frames) {
      if (socket.socket.readyState !== socket.socket.OPEN) socket = await openAuthenticated(url, crewToken);
      socket.sendRaw(text);
    }
    // The connection (or a new one) still answers.
    if (socket.socket.readyState !== socket.socket.OPEN) socket = await openAuthenticated(url, crewToken);
    socket.send({ type: 'ping' });
    await socket.next('pong', undefined, 10_000);
    socket.close();
    expect(errorLines).toEqual([]);
  });
});
