/**
 * Dispatch SQL once per database dialect: the dispatch and its broadcast in one transaction (a failure
 * of the second write leaves neither), the claim's conditional update and the case it starts, the
 * hospital's lists, and the sent-broadcasts cursor.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPath,
  Case,
  CreateDispatchResponse,
  DispatchesResponse,
  routes,
  SentBroadcastsPage,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { published, RIVERSIDE_TRUCK, send, signInAll } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';

const dialects = await testDialects();
const RIVERSIDE = IDS.hospitals.riversideRegional;

describe.each(dialects)('dispatched cases on %s', (dialect) => {
  let t: TestApp;
  let ed1: string;
  let medic1: string;
  let medic2: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [ed1, medic1, medic2] = await signInAll(t, ['ed1', 'medic1', 'medic2']);
  });
  afterAll(() => t.close());

  const dispatch = (notes: string) =>
    send(t, 'POST', buildPath(routes.createDispatch.path, { id: RIVERSIDE }), ed1, {
      body: { emsAgencyId: IDS.agencies.riverside, complaintId: 'stroke', notes },
    });

  it('dispatches, lists, claims once under concurrency, and pages the sent list', async () => {
    const res = await dispatch('Priority 1');
    expect(res.statusCode, res.body).toBe(201);
    const { dispatch: made, broadcast } = CreateDispatchResponse.parse(res.json());
    const claims = await Promise.all(
      [medic1, medic2].map((token) =>
        send(t, 'POST', buildPath(routes.claimDispatch.path, { caseNumber: made.caseNumber }), token, {
          body: { emsAgencyId: IDS.agencies.riverside, truckId: RIVERSIDE_TRUCK },
          key: null,
        }),
      ),
    );
    expect(claims.map((c) => c.statusCode).sort()).toEqual([200, 404]);
    const won = claims.find((c) => c.statusCode === 200);
    const loaded = Case.parse(won?.json());
    expect(loaded).toMatchObject({ caseNumber: made.caseNumber, complaint: 'stroke', type: 'hospitalED' });
    const events = await t.database.db
      .selectFrom('case_events')
      .select(['seq', 'type'])
      .where('case_id', '=', loaded.id)
      .orderBy('seq')
      .execute();
    expect(events.map((e) => [Number(e.seq), e.type])).toEqual([
      [1, 'caseStarted'],
      [2, 'hospital'],
      [3, 'complaint'],
    ]);
    const list = DispatchesResponse.parse(
      (await t.get(buildPath(routes.dispatches.path, { id: RIVERSIDE }), ed1)).json(),
    );
    expect(list.data[0]).toMatchObject({ _id: made._id, status: 'claimed', claim: { caseId: loaded.id } });

    const page = SentBroadcastsPage.parse(
      (await t.get(`${buildPath(routes.sentBroadcasts.path, { id: RIVERSIDE })}?limit=1`, ed1)).json(),
    );
    expect(page.data.map((b) => b._id)).toEqual([broadcast._id]);
    const next = SentBroadcastsPage.parse(
      (
        await t.get(`${buildPath(routes.sentBroadcasts.path, { id: RIVERSIDE })}?cursor=${page.nextCursor ?? ''}`, ed1)
      ).json(),
    );
    // Then the seeded broadcast of Riverside Regional, which has no sender.
    expect(next.data.map((b) => [b._id, b.sentByName])).toEqual([['broadcast-riverside-transfer', null]]);
    expect(next.nextCursor).toBeNull();
  });

  it('leaves neither the dispatch nor its broadcast when the second write fails', async () => {
    if (dialect === 'sqlite') {
      await sql`create trigger fail_dispatch before insert on case_dispatches when new.notes = 'fail here'
        begin select raise(abort, 'refused by test trigger'); end`.execute(t.database.db);
    } else {
      await sql`create function fail_dispatch() returns trigger language plpgsql as $$
        begin if new.notes = 'fail here' then raise exception 'refused by test trigger'; end if; return new; end $$`.execute(
        t.database.db,
      );
      await sql`create trigger fail_dispatch before insert on case_dispatches for each row execute function fail_dispatch()`.execute(
        t.database.db,
      );
    }
    const before = (await published(t, `broadcast:${IDS.agencies.riverside}`)).length;
    const res = await dispatch('fail here');
    expect(res.statusCode).toBe(500);
    const broadcasts = await t.database.db
      .selectFrom('broadcasts')
      .select('id')
      .where('content', 'like', '%fail here')
      .execute();
    expect(broadcasts).toEqual([]);
    expect(
      await t.database.db.selectFrom('case_dispatches').select('id').where('notes', '=', 'fail here').execute(),
    ).toEqual([]);
    expect(await published(t, `broadcast:${IDS.agencies.riverside}`)).toHaveLength(before);
  });
});
