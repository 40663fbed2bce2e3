import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Complaint, DATA_ENABLED_CATEGORY, PatientInfoForm } from '@inbound/contract';
import { systemClock } from '../clock.js';
import type { DB } from '../db/schema.js';
import { cachedHash } from '../test/app.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../test/databases.js';
import { hilltopComplaints, standardComplaints } from './complaint-sets.js';
import { demoAgencies, demoHospitals, patientInfoForm } from './demo-data.js';
import { seedDemoData } from './seed.js';

const TABLES: (keyof DB)[] = [
  'users',
  'agency_members',
  'hospital_staff',
  'agencies',
  'agency_hospitals',
  'trucks',
  'monitors',
  'forms',
  'agency_forms',
  'hospitals',
  'hospital_statuses',
  'complaint_sets',
  'broadcasts',
  'broadcast_agencies',
];

describe('demo complaint sets', () => {
  it('are valid contract complaints with unique ids, 12+ complaints over priorities 1-3', () => {
    for (const set of [standardComplaints, hilltopComplaints]) {
      for (const c of set) Complaint.parse(c);
    }
    expect(standardComplaints.length).toBeGreaterThanOrEqual(12);
    expect(new Set(standardComplaints.map((c) => c.priority))).toEqual(new Set([1, 2, 3]));
    const ids = standardComplaints.flatMap((c) => [
      c.id,
      ...c.sections.flatMap((s) => [s.id, ...s.tags.map((t) => t.id)]),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('have tag groups and data-enabled tags with number, text, date and datetime fields', () => {
    const tags = standardComplaints.flatMap((c) => c.sections.flatMap((s) => s.tags));
    expect(tags.some((t) => t.groupIdentifier !== null)).toBe(true);
    const types = new Set(
      tags.filter((t) => t.category === DATA_ENABLED_CATEGORY).flatMap((t) => t.data.map((f) => f.type)),
    );
    expect(types).toEqual(new Set(['number', 'text', 'date', 'datetime']));
    const codes = Object.fromEntries(standardComplaints.map((c) => [c.name, c.nemsisPreArrivalAlert]));
    expect(codes).toMatchObject({
      Stroke: '4224015',
      'STEMI / Chest Pain': '4224013',
      'Cardiac Arrest': '4224005',
      Sepsis: '4224019',
      'Obstetric Emergency': '4224007',
    });
  });

  it('cover the hospital flags of spec §3 and the patient info form', () => {
    expect(demoHospitals.some((h) => h.nonTwiage)).toBe(true);
    for (const flag of [
      'liveConsult',
      'emsFeedback',
      'caseRequiresPtNameAndDOB',
      'showAiProtocolFeedback',
      'aiProtocolHideSummary',
    ]) {
      expect(
        demoHospitals.some((h) => h.supportedFeatures.some((f) => f.name === flag && f.enabled)),
        flag,
      ).toBe(true);
    }
    expect(new Set(demoHospitals.flatMap((h) => h.statuses.map((s) => s.priority)))).toEqual(
      new Set(['critical', 'urgent']),
    );
    PatientInfoForm.parse(patientInfoForm);
    expect(demoAgencies.map((a) => a.name)).toEqual([
      'Riverside EMS',
      'Lakeside Fire Rescue',
      'Hilltop Volunteer Ambulance',
    ]);
  });
});

const dialects = await testDialects();

describe.each(dialects)('seed on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  const counts = async () =>
    Object.fromEntries(
      await Promise.all(
        TABLES.map(async (table) => {
          const row = await database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .executeTakeFirstOrThrow();
          return [table, Number(row.n)] as const;
        }),
      ),
    );

  it('is idempotent: a second run creates nothing and changes nothing', async () => {
    const first = await seedDemoData(database.db, { clock: systemClock, hashPassword: cachedHash });
    expect(first.usersCreated).toBe(5);
    const before = await counts();
    const usersBefore = await database.db.selectFrom('users').selectAll().orderBy('id').execute();
    const statusesBefore = await database.db.selectFrom('hospital_statuses').selectAll().orderBy('id').execute();

    const second = await seedDemoData(database.db, { clock: systemClock, hashPassword: cachedHash });
    expect(second.usersCreated).toBe(0);
    expect(await counts()).toEqual(before);
    expect(await database.db.selectFrom('users').selectAll().orderBy('id').execute()).toEqual(usersBefore);
    expect(await database.db.selectFrom('hospital_statuses').selectAll().orderBy('id').execute()).toEqual(
      statusesBefore,
    );

    expect(before).toMatchObject({ users: 5, agencies: 3, hospitals: 5, trucks: 7, complaint_sets: 3 });
  });

  it('leaves what an admin changed alone on the next run', async () => {
    await seedDemoData(database.db, { clock: systemClock, hashPassword: cachedHash });
    const hospital = await database.db.selectFrom('hospitals').select(['id', 'name']).executeTakeFirstOrThrow();
    const truck = await database.db.selectFrom('trucks').select(['id', 'agency_id']).executeTakeFirstOrThrow();
    const member = await database.db.selectFrom('agency_members').selectAll().executeTakeFirstOrThrow();
    await database.db
      .updateTable('hospitals')
      .set({ name: 'Renamed by an admin' })
      .where('id', '=', hospital.id)
      .execute();
    await database.db.deleteFrom('trucks').where('id', '=', truck.id).execute();
    await database.db
      .deleteFrom('agency_members')
      .where('agency_id', '=', member.agency_id)
      .where('user_id', '=', member.user_id)
      .where('role', '=', member.role)
      .execute();

    await seedDemoData(database.db, { clock: systemClock, hashPassword: cachedHash });

    const renamed = await database.db
      .selectFrom('hospitals')
      .select('name')
      .where('id', '=', hospital.id)
      .executeTakeFirst();
    expect(renamed?.name).toBe('Renamed by an admin');
    expect(
      await database.db.selectFrom('trucks').select('id').where('id', '=', truck.id).executeTakeFirst(),
    ).toBeUndefined();
    const membership = await database.db
      .selectFrom('agency_members')
      .select('user_id')
      .where('agency_id', '=', member.agency_id)
      .where('user_id', '=', member.user_id)
      .where('role', '=', member.role)
      .executeTakeFirst();
    expect(membership).toBeUndefined();
  });
});
