/**
 * The administration audit log on each dialect: recordAdminChange inside a transaction (kept on commit,
 * gone on rollback, secrets dropped), and GET /v4/admin/audit-log — orgAdmin only, newest first,
 * filters, cursor paging without holes or doubles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminAuditPage } from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { testDialects } from '../../test/databases.js';
import { signInAll } from '../../test/crew-api.js';
import type { Principal } from '../auth/principal.js';
import { decodeAuditCursor, encodeAuditCursor, recordAdminChange, redactSecrets } from './audit.js';

const dialects = await testDialects();

const adminPrincipal: Principal = {
  userId: 'user-admin',
  username: 'admin',
  sessionId: 'test',
  roles: ['orgAdmin'],
  memberOf: [],
  administers: [],
  teamIds: [],
  edHospitalIds: [],
};

describe('audit helpers', () => {
  it('drops secret-looking keys at any depth', () => {
    expect(
      redactSecrets({ name: 'a', passwordHash: 'x', nested: [{ token: 't', ok: 1 }], oneTimePassword: 'p' }),
    ).toEqual({ name: 'a', nested: [{ ok: 1 }] });
  });
  it('round-trips cursors and refuses garbage', () => {
    const cursor = { at: '2026-11-22T05:00:00.000Z', id: 'abc' };
    expect(decodeAuditCursor(encodeAuditCursor(cursor))).toEqual(cursor);
    expect(decodeAuditCursor('nonsense')).toBeNull();
  });
});

describe.each(dialects)('admin audit log on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let ed1: string;
  let medic1: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [admin, ed1, medic1] = await signInAll(t, ['admin', 'ed1', 'medic1']);
  });
  afterAll(() => t.close());

  it('records inside the transaction: kept on commit, gone on rollback, no secrets', async () => {
    await t.database.db.transaction().execute(async (trx) => {
      await recordAdminChange(trx, {
        actor: adminPrincipal,
        action: 'test.commit',
        entityType: 'testEntity',
        entityId: 'e1',
        summary: 'Committed change',
        before: null,
        after: { name: 'x', password_hash: 'secret' },
      });
    });
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await recordAdminChange(trx, {
          actor: adminPrincipal,
          action: 'test.rollback',
          entityType: 'testEntity',
          entityId: 'e2',
          summary: 'Rolled back',
        });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const rows = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('entity_type', '=', 'testEntity')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['test.commit']);
    expect(rows[0]!.actor_name).toBe('Morgan Lee');
    expect(rows[0]!.after).toBe(JSON.stringify({ name: 'x' }));
    expect(rows[0]!.before).toBeNull();
  });

  it('answers newest first, filters and pages by cursor; orgAdmin only', async () => {
    for (let i = 0; i < 5; i++) {
      await recordAdminChange(t.database.db, {
        actor: adminPrincipal,
        action: 'page.test',
        entityType: 'pageEntity',
        entityId: i % 2 === 0 ? 'even' : 'odd',
        summary: `change ${i}`,
        at: new Date(Date.UTC(2026, 10, 22, 6, 0, i)),
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/v4/admin/audit-log?entityType=pageEntity&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await t.get(url, admin);
      expect(res.statusCode, res.body).toBe(200);
      const page = AdminAuditPage.parse(res.json());
      seen.push(...page.entries.map((e) => e.summary));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['change 4', 'change 3', 'change 2', 'change 1', 'change 0']);

    const odd = AdminAuditPage.parse(
      (await t.get('/v4/admin/audit-log?entityType=pageEntity&entityId=odd', admin)).json(),
    );
    expect(odd.entries.map((e) => e.summary)).toEqual(['change 3', 'change 1']);
    expect(odd.entries[0]).toMatchObject({ actor: { id: 'user-admin' }, entityType: 'pageEntity' });
    const byActor = AdminAuditPage.parse(
      (await t.get('/v4/admin/audit-log?entityType=pageEntity&actorId=user-nobody', admin)).json(),
    );
    expect(byActor.entries).toEqual([]);

    expectClientError(await t.get('/v4/admin/audit-log?cursor=garbage', admin), 400);
    expectClientError(await t.get('/v4/admin/audit-log?limit=0', admin), 400);
    expectClientError(await t.get('/v4/admin/audit-log', ed1), 403);
    expectClientError(await t.get('/v4/admin/audit-log', medic1), 403);
    expectClientError(await t.get('/v4/admin/audit-log', null), 401);
  });
});
