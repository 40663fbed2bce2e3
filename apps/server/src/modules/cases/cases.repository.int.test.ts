/**
 * The case storage on each dialect: the repository's queries and constraints, durability settings,
 * the case-number redraw, and the races the idempotency and the row lock must win — on SQLite and
 * on PostgreSQL (where requests really run in parallel on a connection pool).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, buildPath, CreateCaseResponse, routes } from '@inbound/contract';
import { systemClock } from '../../clock.js';
import type { Principal } from '../auth/principal.js';
import { createAgenciesRepository } from '../agencies/agencies.repository.js';
import { createAgenciesService } from '../agencies/agencies.service.js';
import { createComplaintsRepository } from '../complaints/complaints.repository.js';
import { createComplaintsService } from '../complaints/complaints.service.js';
import { createHospitalsRepository } from '../hospitals/hospitals.repository.js';
import { createHospitalsService } from '../hospitals/hospitals.service.js';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { testDialects } from '../../test/databases.js';
import { createCasesRepository, isCaseNumberViolation, isUniqueViolation } from './cases.repository.js';
import { createCasesService, type WriteContext } from './cases.service.js';

type CasesService = ReturnType<typeof createCasesService>;
import { verifyAuditChains } from '../audit/audit-chain.js';

const dialects = await testDialects();

const medic1: Principal = {
  userId: IDS.users.medic1,
  username: 'medic1',
  sessionId: 'test',
  roles: ['crew'],
  memberOf: [IDS.agencies.riverside, IDS.agencies.lakeside],
  administers: [IDS.agencies.hilltop],
  teamIds: [IDS.agencies.riverside, IDS.agencies.lakeside, IDS.agencies.hilltop],
  edHospitalIds: [],
};
const writeContext = (hash = 'h'): WriteContext => ({
  idempotencyKey: randomUUID(),
  requestHash: hash,
  clientCreatedAt: null,
});
const createBody = {
  emsAgency: IDS.agencies.riverside,
  truck: 'truck-riverside-medic-1',
  beganAt: '2026-11-21T12:00:00Z',
};

describe.each(dialects)('cases storage on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    token = await t.signIn('medic1');
  });
  afterAll(() => t.close());

  function services(caseNumbers?: () => string) {
    const db = t.database.db;
    const hospitals = createHospitalsService({
      repo: createHospitalsRepository(db),
      agencies: { agencyIdsDeliveringTo: () => Promise.resolve([]) },
    });
    const agencies = createAgenciesService({ repo: createAgenciesRepository(db), hospitals });
    const complaints = createComplaintsService({ repo: createComplaintsRepository(db), agencies });
    const repo = createCasesRepository(db);
    const deps = { repo, clock: systemClock, agencies, complaints, hospitals, ...(caseNumbers ? { caseNumbers } : {}) };
    return { repo, deps, cases: createCasesService(deps) };
  }

  const send = (method: 'POST' | 'PATCH', url: string, body: unknown, key: string) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: authorizationHeader(token), 'idempotency-key': key },
      payload: body as object,
    });

  it('commits durably: SQLite WAL synced before the answer (wal-sync.ts), PostgreSQL synchronous_commit=on', async () => {
    if (dialect === 'postgres') {
      const result = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(t.database.db);
      expect(result.rows[0]?.synchronous_commit).toBe('on');
    } else {
      const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.database.db);
      // NORMAL plus the WAL's fsync on the thread pool before any answer (db/wal-sync.test.ts).
      expect(sync.rows[0]?.synchronous).toBe(1);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.database.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
    }
  });

  it('keeps one row per idempotency key and per case number, and recognises the violations', async () => {
    const { repo, cases } = services();
    const created = await cases.create(medic1, writeContext(), null, createBody);
    const row = await repo.findById(created.body.id);
    expect(row?.version).toBe(1);
    const key = {
      user_id: IDS.users.medic1,
      key: 'k-duplicate',
      case_id: created.body.id,
      request_hash: 'h',
      status: 200,
      response: '{}',
      created_at: 'now',
    };
    await repo.transaction((trx) => repo.insertIdempotencyKey(trx, key));
    const duplicateKey = await repo.transaction((trx) => repo.insertIdempotencyKey(trx, key)).catch((e: unknown) => e);
    expect(isUniqueViolation(duplicateKey)).toBe(true);
    expect(isCaseNumberViolation(duplicateKey)).toBe(false);
    const duplicateNumber = await repo
      .transaction((trx) =>
        repo.insertCase(
          trx,
          { ...row!, id: randomUUID(), created_at: 'now', updated_at: 'now', version: 0 },
          IDS.users.medic1,
        ),
      )
      .catch((e: unknown) => e);
    expect(isCaseNumberViolation(duplicateNumber)).toBe(true);
  });

  it('draws another case number when the one drawn is taken', async () => {
    const drawn = ['KMT-472', 'KMT-472', 'KMT-472', 'BRZ-385'];
    const { cases } = services(() => drawn.shift()!);
    const first = await cases.create(medic1, writeContext(), null, createBody);
    const second = await cases.create(medic1, writeContext(), null, createBody);
    expect([first.body.caseNumber, second.body.caseNumber]).toEqual(['KMT-472', 'BRZ-385']);
    expect(drawn).toEqual([]);
  });

  it('lists events in order and locks the case row for a write', async () => {
    const { repo, cases } = services();
    const { body } = await cases.create(medic1, writeContext(), 'placeholder-1', createBody);
    await cases.patch(medic1, writeContext('a'), body.id, { gender: 'F' });
    await cases.patch(medic1, writeContext('b'), body.id, { complaint: 'stroke' });
    expect((await repo.events(body.id)).map((e) => [Number(e.seq), e.type])).toEqual([
      [1, 'caseStarted'],
      [2, 'gender'],
      [3, 'complaint'],
    ]);
    const locked = await repo.transaction((trx) => repo.lockForWrite(trx, body.id));
    expect(locked).toMatchObject({ id: body.id, version: 3, gender: 'F', complaint_id: 'stroke' });
    expect(await repo.transaction((trx) => repo.lockForWrite(trx, 'nope'))).toBeNull();
    expect(await repo.hasAccess(body.id, IDS.users.medic1)).toBe(true);
    expect(await repo.hasAccess(body.id, IDS.users.medic2)).toBe(false);
    expect((await repo.findWithAccess(body.id, IDS.users.medic1))?.role).toBe('owner');
    const other = await repo.findWithAccess(body.id, IDS.users.medic2);
    expect(other?.role).toBeNull();
    expect(other?.row).toMatchObject({ id: body.id, case_number: body.caseNumber });
    expect(await repo.findWithAccess('nope', IDS.users.medic1)).toBeNull();
  });

  it('reads the key, the case and the access in one statement, and a known key when the case is not found', async () => {
    const { repo, cases } = services();
    const { body } = await cases.create(medic1, writeContext(), null, createBody);
    const stored = { request_hash: 'h-stored', response: '{"stored":true}' };
    const key = { user_id: IDS.users.medic1, key: randomUUID(), case_id: body.id, status: 200, created_at: 'now' };
    await repo.transaction((trx) => repo.insertIdempotencyKey(trx, { ...key, ...stored }));

    const owner = await repo.findForWrite(body.id, IDS.users.medic1, key.key);
    expect(owner.stored).toEqual(stored);
    expect(owner.found?.role).toBe('owner');
    expect(owner.found?.row).toMatchObject({ id: body.id, case_number: body.caseNumber, version: 1 });
    expect(owner.found?.row).not.toHaveProperty('stored_response');
    // Another user's key of the same name is not theirs; a fresh key finds nothing stored.
    const other = await repo.findForWrite(body.id, IDS.users.medic2, key.key);
    expect(other).toEqual({
      stored: null,
      found: { row: owner.found!.row, role: null, rowVersion: owner.found!.rowVersion },
    });
    // PostgreSQL answers the row's version (xmin), which the write checks instead of locking; SQLite none.
    if (dialect === 'postgres') expect(owner.found?.rowVersion).toMatch(/^\d+$/);
    else expect(owner.found?.rowVersion).toBeNull();
    expect((await repo.findForWrite(body.id, IDS.users.medic1, randomUUID())).stored).toBeNull();
    // The key used on a case id that does not exist: the stored answer is still found (the service
    // answers it, or 409 when the request differs), the case is not.
    expect(await repo.findForWrite('nope', IDS.users.medic1, key.key)).toEqual({ stored, found: null });
    expect(await repo.findForWrite('nope', IDS.users.medic1, randomUUID())).toEqual({ stored: null, found: null });
  });

  it('a write whose case changed after its first read is made on the case as it is now', async () => {
    const { repo, deps, cases } = services();
    const { body } = await cases.create(medic1, writeContext(), null, createBody);
    const { riversideRegional, stMarys, mercyGeneral } = IDS.hospitals;
    // Another write of the case runs, once, while this one checks the destination against the team's
    // hospitals: after the case was read for the write, before its transaction (where PostgreSQL does not
    // read it again, decision 0050).
    const racing = (interfere: () => Promise<unknown>) => {
      let once: (() => Promise<unknown>) | null = interfere;
      return createCasesService({
        ...deps,
        agencies: {
          ...deps.agencies,
          async hospitalIds(agencyId: string) {
            const run = once;
            once = null;
            await run?.();
            return deps.agencies.hospitalIds(agencyId);
          },
        },
      });
    };
    const destination = (service: CasesService, hospital: string) =>
      service.patch(medic1, writeContext(), body.id, { destinationHospital: hospital });

    // An event in between: this write's event is the one after it.
    const age = () => cases.patch(medic1, writeContext(), body.id, { age: 50, agePeriod: 3 });
    expect((await destination(racing(age), riversideRegional)).body.event).toMatchObject({ seq: 3 });
    // A column change with no event in between (the row moved, not the case's version): this write's event
    // says where the case was headed then, not what its first read said.
    const columns = () =>
      cases.hospitalWrite(body.id, IDS.users.medic1, ({ update }) =>
        update({ destination_hospital_id: mercyGeneral, monitor_patient_id: 'p-7' }),
      );
    expect((await destination(racing(columns), stMarys)).body.event).toMatchObject({ seq: 4 });
    // Read as St Mary's but moved to Riverside meanwhile: "St Mary's already, nothing to record" would
    // leave the case at Riverside; the write records the change.
    const moved = () => destination(cases, riversideRegional);
    expect((await destination(racing(moved), stMarys)).body.event).toMatchObject({ seq: 6 });

    expect(await repo.findById(body.id)).toMatchObject({
      version: 6,
      age: 50,
      monitor_patient_id: 'p-7',
      destination_hospital_id: stMarys,
    });
    const events = await repo.events(body.id);
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'caseStarted'],
      [2, 'age'],
      [3, 'hospital'],
      [4, 'hospital'],
      [5, 'hospital'],
      [6, 'hospital'],
    ]);
    expect(JSON.parse(events[3]!.payload)).toMatchObject({ destinationHospital: stMarys, previous: mercyGeneral });
  });

  it('a write of one event made as one statement (PostgreSQL) whose case changed after its read is made again on it', async () => {
    const { repo, deps, cases } = services();
    const { body } = await cases.create(medic1, writeContext(), null, createBody);
    // Another write of the case lands after this one read it, just before its statement (or transaction).
    let interfere: (() => Promise<unknown>) | null = null;
    const late = async () => {
      const run = interfere;
      interfere = null;
      await run?.();
    };
    const racing = createCasesService({
      ...deps,
      repo: {
        ...repo,
        writeAlone: async (...args: Parameters<typeof repo.writeAlone>) => (await late(), repo.writeAlone(...args)),
        transaction: async (work) => (await late(), repo.transaction(work)),
      },
    });
    const age = (change: { age: number; agePeriod?: 1 | 2 | 3 }) =>
      racing.patch(medic1, writeContext(), body.id, change);

    // An event in between: this write's event is numbered after it.
    interfere = () => cases.patch(medic1, writeContext(), body.id, { gender: 'M' });
    expect((await age({ age: 61, agePeriod: 3 })).body.event).toMatchObject({ seq: 3 });
    // A column change with no event in between (the row moved, not its version): an age with no period
    // keeps the case's period as it is now (months), not as first read (years).
    interfere = () => cases.hospitalWrite(body.id, IDS.users.medic1, ({ update }) => update({ age_period: 2 }));
    expect((await age({ age: 7 })).body.event).toMatchObject({ seq: 4 });

    expect(await repo.findById(body.id)).toMatchObject({ version: 4, gender: 'M', age: 7, age_period: 2 });
    const events = await repo.events(body.id);
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'caseStarted'],
      [2, 'gender'],
      [3, 'age'],
      [4, 'age'],
    ]);
    expect(JSON.parse(events[3]!.payload)).toEqual({ age: 7, agePeriod: 2 });
    // Nothing of the first tries was kept: one audit row per event, the chain whole.
    const audit = await t.database.db
      .selectFrom('security_audit')
      .select('action')
      .where('case_id', '=', body.id)
      .execute();
    expect(audit).toHaveLength(4);
    expect((await verifyAuditChains(t.database.db)).problems).toEqual([]);
  });

  it("writes a column change with the next event's version move, and one no event follows at the end", async () => {
    const { repo, cases } = services();
    const { body } = await cases.create(medic1, writeContext(), null, createBody);
    const events = await cases.hospitalWrite(body.id, IDS.users.medic1, async ({ update, emit }) => {
      await update({ gender: 'F' });
      await update({ age: 70, age_period: 3 });
      const first = await emit('age', { age: 70, agePeriod: 3 });
      await update({ monitor_patient_id: 'after-the-last-event' });
      return [first];
    });
    expect(events?.map((e) => e.seq)).toEqual([2]);
    const row = await repo.findById(body.id);
    expect(row).toMatchObject({ gender: 'F', age: 70, version: 2, monitor_patient_id: 'after-the-last-event' });
    // A write that throws leaves nothing: neither its event nor its changes.
    await expect(
      cases.hospitalWrite(body.id, IDS.users.medic1, async ({ update, emit }) => {
        await update({ age: 1 });
        await emit('age', { age: 1, agePeriod: 3 });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await repo.findById(body.id)).toMatchObject({ age: 70, version: 2 });
  });

  it("chains the audit rows of case writes made at once, of two events, failed, and in a caller's transaction", async () => {
    const { cases } = services();
    const started = await Promise.all(
      Array.from({ length: 10 }, () => cases.create(medic1, writeContext(), null, createBody)),
    );
    const ids = started.map(({ body }) => body.id);
    // Three writes per case at once: ten cases on eight chains, so some chains take turns.
    const patched = await Promise.all(
      ids.flatMap((id) =>
        [1, 2, 3].map((age) =>
          send('PATCH', buildPath(routes.patchCase.path, { id }), { age, agePeriod: 3 }, randomUUID()),
        ),
      ),
    );
    expect(patched.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
    // Two events in one write, each chained on the one before while neither is written yet.
    await cases.hospitalWrite(ids[0]!, IDS.users.medic1, async ({ emit }) => {
      await emit('gender', { gender: 'M' });
      await emit('gender', { gender: 'F' });
    });
    await expect(
      cases.hospitalWrite(ids[1]!, IDS.users.medic1, async ({ emit }) => {
        await emit('gender', { gender: 'M' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // A caller's transaction (a transfer step) that goes on after the event.
    const step = {
      caseId: ids[2]!,
      transferId: 'transfer-1',
      actorUserId: IDS.users.medic1,
      at: new Date().toISOString(),
    };
    await t.database.db.transaction().execute(async (trx) => {
      await cases.transfer.admitReceiver(trx, step, IDS.users.medic2, 'receiver');
      await cases.transfer.dismissReceiver(trx, step, IDS.users.medic2, 'receiver');
    });

    const rows = await t.database.db
      .selectFrom('security_audit')
      .select(['case_id', 'action'])
      .where('case_id', 'in', ids)
      .execute();
    // 10 starts, 30 age changes, 2 gender changes, 2 transfer steps; the failed write left none.
    expect(rows).toHaveLength(44);
    expect(rows.filter((row) => row.case_id === ids[1] && row.action === 'case.gender')).toEqual([]);
    expect((await verifyAuditChains(t.database.db)).problems).toEqual([]);
  });

  it('writes one event when N identical requests race with one key, and N in order with N keys', async () => {
    const createKey = randomUUID();
    const created = await Promise.all(
      Array.from({ length: 6 }, () => send('POST', '/v4/twiageCases?placeholder-5', createBody, createKey)),
    );
    expect(created.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const { id } = CreateCaseResponse.parse(created[0]!.json());
    expect(new Set(created.map((r) => CreateCaseResponse.parse(r.json()).id))).toEqual(new Set([id]));
    const casesWithPlaceholder = await t.database.db
      .selectFrom('cases')
      .select('id')
      .where('placeholder_id', '=', 'placeholder-5')
      .execute();
    expect(casesWithPlaceholder).toHaveLength(1);

    const path = buildPath(routes.patchCase.path, { id });
    const key = randomUUID();
    const same = await Promise.all(
      Array.from({ length: 12 }, () => send('PATCH', path, { age: 50, agePeriod: 3 }, key)),
    );
    expect(same.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    expect(new Set(same.map((r) => r.body)).size).toBe(1);

    const distinct = await Promise.all(
      Array.from({ length: 12 }, (_, i) => send('PATCH', path, { age: i + 1, agePeriod: 3 }, randomUUID())),
    );
    expect(distinct.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    const events = await createCasesRepository(t.database.db).events(id);
    expect(events.map((e) => Number(e.seq))).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    expect(events.filter((e) => e.type === 'age')).toHaveLength(13);
  });
});
