/** The module repositories on each dialect, against the seeded demo data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';
import { createAgenciesRepository } from './modules/agencies/agencies.repository.js';
import { createBroadcastsRepository } from './modules/broadcasts/broadcasts.repository.js';
import { createComplaintsRepository } from './modules/complaints/complaints.repository.js';
import { createFeedbackRepository } from './modules/feedback/feedback.repository.js';
import { createHospitalsRepository } from './modules/hospitals/hospitals.repository.js';
import { createUsersRepository } from './modules/users/users.repository.js';
import { IDS } from './seed/demo-data.js';
import { seedDemoData } from './seed/seed.js';
import { cachedHash } from './test/app.js';
import { createTestDatabase, testDialects, type TestDatabase } from './test/databases.js';

const dialects = await testDialects();

describe.each(dialects)('repositories on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemoData(database.db, { clock: systemClock, hashPassword: cachedHash });
  });
  afterAll(() => database.destroy());

  it('users: find by username or e-mail key, memberships in one read, password update', async () => {
    const users = createUsersRepository(database.db);
    expect((await users.findByLogin('medic1'))?.id).toBe(IDS.users.medic1);
    expect((await users.findByLogin('medic1@inbound.example'))?.id).toBe(IDS.users.medic1);
    expect(await users.findByLogin('nobody')).toBeNull();
    expect(await users.memberships(IDS.users.medic1)).toEqual({
      memberOf: [IDS.agencies.lakeside, IDS.agencies.riverside],
      administers: [IDS.agencies.hilltop],
      edHospitalIds: [],
    });
    expect((await users.memberships(IDS.users.ed1)).edHospitalIds).toEqual([IDS.hospitals.riversideRegional]);
    await users.updatePasswordHash(IDS.users.admin, 'new-hash', '2026-11-21T12:00:00.000Z');
    expect((await users.findById(IDS.users.admin))?.password_hash).toBe('new-hash');
  });

  it('agencies: hospitals in order, delivering agencies, set names, trucks, monitors, forms', async () => {
    const agencies = createAgenciesRepository(database.db);
    expect(await agencies.hospitalIds(IDS.agencies.lakeside)).toEqual([
      IDS.hospitals.lakesideMedical,
      IDS.hospitals.stMarys,
    ]);
    expect((await agencies.agencyIdsDeliveringTo(IDS.hospitals.stMarys)).sort()).toEqual(
      [IDS.agencies.lakeside, IDS.agencies.riverside].sort(),
    );
    expect(await agencies.complaintSetNames([IDS.agencies.riverside, IDS.agencies.lakeside])).toEqual([
      'Standard ALS/BLS 2026',
    ]);
    expect(await agencies.complaintSetNames([])).toEqual([]);
    const trucks = await agencies.trucks(IDS.agencies.riverside);
    expect(trucks.map((t) => [t.name, Number(t.is_als)])).toEqual([
      ['Medic 1', 1],
      ['Medic 2', 1],
      ['Ambulance 5', 0],
    ]);
    expect(await agencies.monitors(IDS.agencies.hilltop)).toEqual([]);
    expect((await agencies.forms(IDS.agencies.hilltop)).map((f) => f.type)).toEqual(['patientInfo']);
  });

  it('hospitals: by ids, active statuses critical first, cleared ones hidden', async () => {
    const hospitals = createHospitalsRepository(database.db);
    expect(await hospitals.findByIds([])).toEqual([]);
    const [mercy] = await hospitals.findByIds([IDS.hospitals.mercyGeneral]);
    expect(typeof mercy!.latitude).toBe('number');
    const statuses = await hospitals.activeStatuses([IDS.hospitals.mercyGeneral]);
    expect(statuses.map((s) => s.priority)).toEqual(['critical', 'urgent']);
    await database.db
      .updateTable('hospital_statuses')
      .set({ cleared_at: '2026-11-21T12:00:00.000Z' })
      .where('id', '=', statuses[0]!.id)
      .execute();
    expect((await hospitals.activeStatuses([IDS.hospitals.mercyGeneral])).map((s) => s.priority)).toEqual(['urgent']);
  });

  it('complaint sets: newest version first, limit for the newest only', async () => {
    const complaints = createComplaintsRepository(database.db);
    expect((await complaints.findByName('Standard ALS/BLS 2026')).map((r) => Number(r.version))).toEqual([2, 1]);
    expect(await complaints.findByName('Standard ALS/BLS 2026', 1)).toHaveLength(1);
    expect(await complaints.findByName('nothing')).toEqual([]);
  });

  it('broadcasts: newest first for the agencies, with their recipients; limit; none for no agencies', async () => {
    const broadcasts = createBroadcastsRepository(database.db);
    const rows = await broadcasts.listForAgencies([IDS.agencies.riverside], 100);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.created_at)).toEqual(
      rows
        .map((r) => r.created_at)
        .sort()
        .reverse(),
    );
    expect(rows.find((r) => r.id === 'broadcast-st-marys-entrance')!.agencyIds).toEqual(
      [IDS.agencies.lakeside, IDS.agencies.riverside].sort(),
    );
    expect(await broadcasts.listForAgencies([IDS.agencies.riverside, IDS.agencies.lakeside], 2)).toHaveLength(2);
    expect(await broadcasts.listForAgencies([], 100)).toEqual([]);
  });

  it('feedback: insert and read back', async () => {
    const feedback = createFeedbackRepository(database.db);
    await feedback.insert({
      id: 'fb-1',
      userId: IDS.users.medic2,
      message: 'Great',
      client: 'ems-web',
      clientVersion: '1.0.234',
      createdAt: '2026-11-21T12:00:00.000Z',
    });
    expect(await feedback.findById('fb-1')).toMatchObject({ user_id: IDS.users.medic2, message: 'Great' });
  });
});
