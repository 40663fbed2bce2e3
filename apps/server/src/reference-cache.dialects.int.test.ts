/**
 * Reference reads (team, trucks, complaint set, users/me) answered from caches keyed by the database's
 * reference version: every kind of write — admin edits, a hospital status, a straight SQL write — is
 * seen by the very next read, on SQLite and PostgreSQL, and across two app instances sharing one
 * PostgreSQL database (each with its own caches and its own connection pool).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  ComplaintSetsResponse,
  routes,
  Team,
  TrucksResponse,
  User,
} from '@inbound/contract';
import { buildApp } from './app.js';
import { openPostgres, type Database } from './db/database.js';
import { referenceVersionOf } from './db/reference-version.js';
import { IDS } from './seed/demo-data.js';
import { STANDARD_SET_NAME } from './seed/complaint-sets.js';
import { createTestApp, type TestApp } from './test/app.js';
import { send, signInAll } from './test/crew-api.js';
import { testDialects } from './test/databases.js';

const dialects = await testDialects();
const RIVERSIDE = IDS.agencies.riverside;
const teamPath = buildPath(routes.team.path, { id: RIVERSIDE });
const trucksPath = buildPath(routes.trucks.path, { id: RIVERSIDE });
const setPath = `${routes.complaintSets.path}?name=${encodeURIComponent(STANDARD_SET_NAME)}`;

describe.each(dialects)('reference reads cached by version on %s', (dialect) => {
  let t: TestApp;
  let medic1: string;
  let admin: string;
  let ed1: string;
  const read = async (app: FastifyInstance, url: string, token: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: authorizationHeader(token) } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as unknown;
  };
  const team = (app = t.app) => read(app, teamPath, medic1).then((body) => Team.parse(body));
  const version = () => referenceVersionOf(t.database.db).current();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [medic1, admin, ed1] = await signInAll(t, ['medic1', 'admin', 'ed1']);
  });
  afterAll(() => t.close());

  it('reads do not move the version; every write to reference data does, in its own transaction', async () => {
    const before = await version();
    await team();
    await read(t.app, setPath, medic1);
    expect(await version()).toBe(before);
    await t.database.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('trucks').set({ name: 'Medic 1A' }).where('id', '=', 'truck-riverside-medic-1').execute();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await version()).toBe(before);
    await t.database.db
      .updateTable('monitors')
      .set({ name: 'LIFEPAK 15 (spare)' })
      .where('agency_id', '=', RIVERSIDE)
      .execute();
    expect(await version()).toBeGreaterThan(before);
  });

  it('an admin edit of the agency, a hospital and a truck is in the next read', async () => {
    await team();
    const renamed = await send(t, 'PATCH', buildPath(routes.adminUpdateAgency.path, { id: RIVERSIDE }), admin, {
      body: { name: 'Riverside EMS (North)' },
      key: null,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await team()).name).toBe('Riverside EMS (North)');

    const hospital = await send(
      t,
      'PATCH',
      buildPath(routes.adminUpdateHospital.path, { id: IDS.hospitals.stMarys }),
      admin,
      {
        body: { name: "St Mary's Hospital (East)" },
        key: null,
      },
    );
    expect(hospital.statusCode, hospital.body).toBe(200);
    expect((await team()).hospitals.map((h) => h.name)).toContain("St Mary's Hospital (East)");

    await read(t.app, trucksPath, medic1);
    const truck = await send(
      t,
      'PATCH',
      buildPath(routes.adminUpdateTruck.path, { id: RIVERSIDE, truckId: 'truck-riverside-medic-2' }),
      admin,
      { body: { name: 'Medic 2B' }, key: null },
    );
    expect(truck.statusCode, truck.body).toBe(200);
    const trucks = TrucksResponse.parse(await read(t.app, trucksPath, medic1));
    expect(trucks.map((x) => x.name)).toContain('Medic 2B');
  });

  it("a hospital status set by ED staff is in the crews' next team read, and gone once cleared", async () => {
    const hospitalOf = (body: Team) => body.hospitals.find((h) => h.id === IDS.hospitals.riversideRegional);
    expect(hospitalOf(await team())?.activeStatuses.map((s) => s.status)).not.toContain('Diversion: CT down');
    const set = await send(
      t,
      'POST',
      buildPath(routes.setHospitalStatus.path, { id: IDS.hospitals.riversideRegional }),
      ed1,
      {
        body: { status: 'Diversion: CT down', priority: 'critical' },
        key: null,
      },
    );
    expect(set.statusCode, set.body).toBe(201);
    const statusId = (set.json() as { _id: string })._id;
    expect(hospitalOf(await team())?.activeStatuses.map((s) => s.status)).toContain('Diversion: CT down');
    const cleared = await send(
      t,
      'DELETE',
      buildPath(routes.clearHospitalStatus.path, { id: IDS.hospitals.riversideRegional, statusId }),
      ed1,
      { key: null },
    );
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(hospitalOf(await team())?.activeStatuses.map((s) => s.status)).not.toContain('Diversion: CT down');
  });

  it('a new complaint-set version and a user edit written straight in SQL are in the next read', async () => {
    const sets = () => read(t.app, setPath, medic1).then((body) => ComplaintSetsResponse.parse(body));
    const versionsBefore = (await sets()).map((s) => s.version);
    await t.database.db
      .insertInto('complaint_sets')
      .values({
        id: 'cset-standard-2026-v9',
        name: STANDARD_SET_NAME,
        version: 9,
        complaints: '[]',
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await sets()).map((s) => s.version)).toEqual([9, ...versionsBefore]);

    const me = () => read(t.app, routes.me.path, medic1).then((body) => User.parse(body));
    expect((await me()).displayName).not.toBe('Jordan Medic-Smith');
    await t.database.db
      .updateTable('users')
      .set({ display_name: 'Jordan Medic-Smith' })
      .where('id', '=', IDS.users.medic1)
      .execute();
    expect((await me()).displayName).toBe('Jordan Medic-Smith');
    await t.database.db
      .deleteFrom('agency_members')
      .where('user_id', '=', IDS.users.medic1)
      .where('agency_id', '=', IDS.agencies.lakeside)
      .execute();
    expect((await me()).emsAgencyMemberships.map((m) => m._id)).toEqual([RIVERSIDE]);
  });

  it('answers many concurrent reads from one version read at a time, each seeing writes before it', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => team()));
    expect(new Set(answers.map((a) => a.name)).size).toBe(1);
    await t.database.db
      .updateTable('agencies')
      .set({ name: 'Riverside EMS (Central)' })
      .where('id', '=', RIVERSIDE)
      .execute();
    const after = await Promise.all(Array.from({ length: 40 }, () => team()));
    expect(after.every((a) => a.name === 'Riverside EMS (Central)')).toBe(true);
  });

  it.runIf(dialect === 'postgres')(
    'two app instances on one PostgreSQL: an edit through one is in the other’s next read',
    async () => {
      const second: Database = openPostgres(t.database.location, 4);
      const other = await buildApp(t.config, { database: second, clock: t.clock });
      try {
        expect((await team(other)).name).toBe((await team()).name);
        const renamed = await send(t, 'PATCH', buildPath(routes.adminUpdateAgency.path, { id: RIVERSIDE }), admin, {
          body: { name: 'Riverside EMS (West)' },
          key: null,
        });
        expect(renamed.statusCode, renamed.body).toBe(200);
        expect((await team(other)).name).toBe('Riverside EMS (West)');
        const status = await other.inject({
          method: 'POST',
          url: buildPath(routes.setHospitalStatus.path, { id: IDS.hospitals.riversideRegional }),
          headers: { authorization: authorizationHeader(ed1) },
          payload: { status: 'Cath lab on call only', priority: 'urgent' },
        });
        expect(status.statusCode, status.body).toBe(201);
        const statuses = (await team()).hospitals.find((h) => h.id === IDS.hospitals.riversideRegional)?.activeStatuses;
        expect(statuses?.map((s) => s.status)).toContain('Cath lab on call only');
      } finally {
        await other.close();
        await second.close();
      }
    },
  );
});
