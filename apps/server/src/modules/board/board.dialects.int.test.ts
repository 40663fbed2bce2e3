/**
 * The board's queries once per database dialect: grouped counts (PostgreSQL answers count(*) as a
 * string), the acknowledgement's row lock and event seq, and the audit inserts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { AcknowledgeResponse, BoardCaseDetail, BoardResponse, buildPath, Case, routes } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { migrateDownTo, migrateToLatest } from '../../db/migrate.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { RIVERSIDE_TRUCK, send, setDestination, signInAll, startCase } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';
import { createBoardRepository, mediaCountsQuery } from './board.repository.js';

const dialects = await testDialects();
const RIVERSIDE = IDS.hospitals.riversideRegional;

describe.each(dialects)('inbound board on %s', (dialect) => {
  let t: TestApp;
  let medic1: string;
  let ed1: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [medic1, ed1] = await signInAll(t, ['medic1', 'ed1']);
  });
  afterAll(() => t.close());

  it('lists, details, acknowledges (once under concurrency) and audits', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, id, RIVERSIDE);
    expect(
      (await send(t, 'PATCH', `/v4/twiageCases/${id}`, medic1, { body: { complaint: 'stroke' } })).statusCode,
    ).toBe(200);
    const chat = await send(t, 'POST', buildPath(routes.postChatMessage.path, { id }), medic1, {
      body: {
        clientCreatedAt: '2026-11-21T11:59:30.000Z',
        deviceId: 'web_ems',
        message: 'hello',
        timestamp: '2026-11-21T11:59:30.000Z',
        source: 'web_ems',
        senderOrganization: 'Riverside EMS',
      },
    });
    expect(chat.statusCode, chat.body).toBe(201);

    const board = BoardResponse.parse(
      (await send(t, 'GET', `/v4/hospitals/${RIVERSIDE}/inbound`, ed1, { key: null })).json(),
    );
    const card = board.open.find((c) => c.id === id);
    expect(card).toMatchObject({ unreadChat: 1, mediaCount: 0, complaint: { priority: 1 } });

    const detail = BoardCaseDetail.parse(
      (await send(t, 'GET', `/v4/hospitals/${RIVERSIDE}/inbound/${id}`, ed1, { key: null })).json(),
    );
    expect(detail.timeline.map((e) => e.seq)).toEqual([1, 2, 3]);

    const acks = await Promise.all(
      [1, 2, 3].map(() => send(t, 'POST', `/v4/hospitals/${RIVERSIDE}/inbound/${id}/acknowledge`, ed1, { key: null })),
    );
    const bodies = acks.map((res) => AcknowledgeResponse.parse(res.json()));
    expect(new Set(bodies.map((b) => b.acknowledgement.at)).size).toBe(1);
    const events = await t.database.db
      .selectFrom('case_events')
      .select(['type', 'seq'])
      .where('case_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(events.map((e) => [e.type, Number(e.seq)])).toEqual([
      ['caseStarted', 1],
      ['hospital', 2],
      ['complaint', 3],
      ['acknowledged', 4],
    ]);
    const crewCase = Case.parse((await send(t, 'GET', `/v4/twiageCases/${id}`, medic1, { key: null })).json());
    expect(crewCase.acknowledgedByHospital).toBe('Riverside Regional Medical Center');

    const audit = await t.database.db
      .selectFrom('case_read_audit')
      .select(['access', 'user_id'])
      .where('case_id', '=', id)
      .execute();
    expect(audit.map((a) => a.access).sort()).toEqual(['board', 'detail']);
    expect(new Set(audit.map((a) => a.user_id))).toEqual(new Set([IDS.users.ed1]));
  });

  it('gives an acknowledgement recorded before hospitalName was required the name of its hospital (migration)', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, id, RIVERSIDE);
    const ack = await send(t, 'POST', `/v4/hospitals/${RIVERSIDE}/inbound/${id}/acknowledge`, ed1, { key: null });
    expect(ack.statusCode).toBe(200);
    const ackEvent = () =>
      t.database.db
        .selectFrom('case_events')
        .select(['id', 'payload'])
        .where('case_id', '=', id)
        .where('type', '=', 'acknowledged')
        .executeTakeFirstOrThrow();
    const recorded = await ackEvent();
    // As the code before the change wrote it: no hospitalName.
    const { hospitalName: _dropped, ...old } = JSON.parse(recorded.payload) as Record<string, unknown>;
    await t.database.db
      .updateTable('case_events')
      .set({ payload: JSON.stringify(old) })
      .where('id', '=', recorded.id)
      .execute();
    await migrateDownTo(t.database.db, '20261125_1140_case_outbox');
    await migrateToLatest(t.database.db);
    expect(JSON.parse((await ackEvent()).payload)).toEqual({
      ...old,
      hospitalName: 'Riverside Regional Medical Center',
    });
  });

  it("counts a card's media events through the partial index that holds only them", async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    const { db } = t.database;
    const event = (seq: number, type: string) => ({
      id: `${id}-${seq}`,
      case_id: id,
      seq,
      type,
      actor_user_id: IDS.users.medic1,
      created_at: '2026-11-29T10:00:00.000Z',
      client_created_at: null,
      payload: '{}',
    });
    await db
      .insertInto('case_events')
      .values([event(100, 'photo'), event(101, 'ekg'), event(102, 'photo'), event(103, 'callrecording')])
      .execute();
    const counts = await createBoardRepository(db).mediaCounts([id]);
    expect(Object.fromEntries(counts.get(id) ?? [])).toEqual({ photo: 2, ekg: 1 });

    // The condition the queries write must be one the planner can match to the index's (literals, the
    // same list): PostgreSQL is kept off the table scan it would pick for so few rows.
    const query = mediaCountsQuery(db, [id]).compile();
    const plan = await db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      const explain = dialect === 'postgres' ? 'explain ' : 'explain query plan ';
      const { rows } = await trx.executeQuery(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
      return JSON.stringify(rows);
    });
    expect(plan).toContain('case_events_media_idx');
  });
});
