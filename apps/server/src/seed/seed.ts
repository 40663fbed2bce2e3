/**
 * Writes the demo data. Idempotent: fixed ids, and everything is inserted only when missing — an
 * agency or hospital already there is left exactly as it is, with its trucks, monitors, forms and
 * statuses — so a restart with SEED_DEMO=true never undoes what an admin or ED changed in the console.
 */
import { ORG_SECURITY_KEY } from '../modules/auth/mfa.js';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { DB } from '../db/schema.js';
import { toFlag, toJson } from '../db/json.js';
import {
  hilltopComplaints,
  HILLTOP_SET_NAME,
  standardComplaints,
  standardComplaintsV1,
  STANDARD_SET_NAME,
} from './complaint-sets.js';
import {
  demoAgencies,
  demoBroadcasts,
  demoHospitals,
  demoPassword,
  demoUsers,
  IDS,
  patientInfoForm,
} from './demo-data.js';

export interface SeedDeps {
  clock: Clock;
  hashPassword(password: string): Promise<string>;
}

export interface SeedResult {
  usersCreated: number;
}

async function presentIds(db: Kysely<DB>, table: 'hospitals' | 'agencies', ids: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

const minutesBefore = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

const DEMO_ORG_SECURITY = { mfaRequired: { edStaff: false, orgAdmin: false } };

export async function seedDemoData(db: Kysely<DB>, { clock, hashPassword }: SeedDeps): Promise<SeedResult> {
  const now = clock.now();
  const at = now.toISOString();

  // Hash outside the transaction (argon2 takes a while) and only for users not there yet.
  const existing = new Set(
    (
      await db
        .selectFrom('users')
        .select('id')
        .where(
          'id',
          'in',
          demoUsers.map((u) => u.id),
        )
        .execute()
    ).map((r) => r.id),
  );
  const newUsers = await Promise.all(
    demoUsers
      .filter((u) => !existing.has(u.id))
      .map(async (u) => ({ user: u, hash: await hashPassword(demoPassword(u.username)) })),
  );

  const presentHospitals = await presentIds(
    db,
    'hospitals',
    demoHospitals.map((h) => h.id),
  );
  const presentAgencies = await presentIds(
    db,
    'agencies',
    demoAgencies.map((a) => a.id),
  );

  await db.transaction().execute(async (trx) => {
    for (const h of demoHospitals) {
      if (presentHospitals.has(h.id)) continue;
      const values = {
        name: h.name,
        non_twiage: toFlag(h.nonTwiage),
        status_channel_id: `hospital-status:${h.id}`,
        ed_phone_numbers: toJson(h.edPhoneNumbers),
        supported_features: toJson(h.supportedFeatures),
        latitude: h.location.latitude,
        longitude: h.location.longitude,
        stroke_center: h.capabilities?.strokeCenter ?? null,
        pci: toFlag(h.capabilities?.pci ?? false),
        trauma_level: h.capabilities?.traumaLevel ?? null,
      };
      await trx
        .insertInto('hospitals')
        .values({ id: h.id, ...values, created_at: at, updated_at: at })
        .execute();
      for (const s of h.statuses) {
        await trx
          .insertInto('hospital_statuses')
          .values({
            id: s.id,
            hospital_id: h.id,
            status: s.status,
            priority: s.priority,
            set_at: minutesBefore(now, s.minutesAgo),
            cleared_at: null,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      }
    }

    const formValues = {
      type: patientInfoForm.type,
      title: patientInfoForm.title,
      subtitle: patientInfoForm.subtitle,
      fields: toJson(patientInfoForm.fields),
    };
    await trx
      .insertInto('forms')
      .values({ id: patientInfoForm.id, ...formValues })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();

    for (const a of demoAgencies) {
      if (presentAgencies.has(a.id)) continue;
      const values = {
        name: a.name,
        complaint_set_name: a.complaintSetName,
        max_case_length: a.maxCaseLength,
        emt_levels: toJson(a.emtLevels),
      };
      await trx
        .insertInto('agencies')
        .values({ id: a.id, ...values, created_at: at, updated_at: at })
        .execute();
      for (const [position, hospitalId] of a.hospitals.entries()) {
        await trx
          .insertInto('agency_hospitals')
          .values({ agency_id: a.id, hospital_id: hospitalId, position })
          .execute();
      }
      for (const [position, t] of a.trucks.entries()) {
        const truck = { agency_id: a.id, name: t.name, is_als: toFlag(t.isALS), position };
        await trx
          .insertInto('trucks')
          .values({ id: t.id, ...truck })
          .execute();
      }
      for (const [position, m] of a.monitors.entries()) {
        const monitor = { agency_id: a.id, name: m.name, type: m.type, position };
        await trx
          .insertInto('monitors')
          .values({ id: m.id, ...monitor })
          .execute();
      }
      for (const [position, formId] of a.forms.entries()) {
        await trx.insertInto('agency_forms').values({ agency_id: a.id, form_id: formId, position }).execute();
      }
    }

    const sets = [
      {
        id: IDS.complaintSets.standardV1,
        name: STANDARD_SET_NAME,
        version: 1,
        complaints: standardComplaintsV1,
        age: 60 * 24 * 90,
      },
      {
        id: IDS.complaintSets.standardV2,
        name: STANDARD_SET_NAME,
        version: 2,
        complaints: standardComplaints,
        age: 60 * 24 * 7,
      },
      {
        id: IDS.complaintSets.hilltop,
        name: HILLTOP_SET_NAME,
        version: 1,
        complaints: hilltopComplaints,
        age: 60 * 24 * 30,
      },
    ];
    for (const s of sets) {
      await trx
        .insertInto('complaint_sets')
        .values({
          id: s.id,
          name: s.name,
          version: s.version,
          complaints: toJson(s.complaints),
          created_at: minutesBefore(now, s.age),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }

    // The demo organisation does not require MFA, so the quick start signs in with the printed
    // passwords (a new organisation does: mfa.ts). Only when unset: an admin's choice stays.
    await trx
      .insertInto('org_settings')
      .values({ key: ORG_SECURITY_KEY, value: toJson(DEMO_ORG_SECURITY), updated_at: at })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();

    for (const { user, hash } of newUsers) {
      await trx
        .insertInto('users')
        .values({
          id: user.id,
          username: user.username,
          username_key: user.username.toLowerCase(),
          email: user.email,
          email_key: user.email.toLowerCase(),
          display_name: user.displayName,
          password_hash: hash,
          disabled: 0,
          features: toJson(user.features),
          roles: toJson(user.roles),
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
    // Memberships only for users made now: an admin's later removal of one must survive a restart.
    for (const { user } of newUsers) {
      const memberships = [
        ...user.memberOf.map((agency_id) => ({ agency_id, user_id: user.id, role: 'member' as const })),
        ...user.administers.map((agency_id) => ({ agency_id, user_id: user.id, role: 'admin' as const })),
      ];
      for (const m of memberships) {
        await trx
          .insertInto('agency_members')
          .values(m)
          .onConflict((oc) => oc.columns(['agency_id', 'user_id', 'role']).doNothing())
          .execute();
      }
      for (const hospital_id of user.edStaffOf) {
        await trx
          .insertInto('hospital_staff')
          .values({ hospital_id, user_id: user.id })
          .onConflict((oc) => oc.columns(['hospital_id', 'user_id']).doNothing())
          .execute();
      }
    }

    for (const b of demoBroadcasts) {
      await trx
        .insertInto('broadcasts')
        .values({
          id: b.id,
          content: b.content,
          urgent: toFlag(b.urgent),
          type: b.type,
          case_number: b.caseNumber,
          sender_organization_name: b.senderOrganizationName,
          created_at: minutesBefore(now, b.minutesAgo),
          // Listed in the sending hospital's Sent broadcasts (no sender: sent before the console existed).
          hospital_id: demoHospitals.find((h) => h.name === b.senderOrganizationName)?.id ?? null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      for (const agency_id of b.agencies) {
        await trx
          .insertInto('broadcast_agencies')
          .values({ broadcast_id: b.id, agency_id })
          .onConflict((oc) => oc.columns(['broadcast_id', 'agency_id']).doNothing())
          .execute();
      }
    }
  });

  return { usersCreated: newUsers.length };
}

/** What main.ts prints after seeding, so a newcomer can sign in at once. */
export const demoSignIns = demoUsers.map((u) => ({
  username: u.username,
  password: demoPassword(u.username),
  displayName: u.displayName,
  role: u.roles.join(', '),
}));
