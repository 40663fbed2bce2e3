/**
 * Hospital capabilities (issue 15 item 5): an org admin sets a hospital's stroke centre level, PCI and
 * trauma level; crews read them with the hospital (their destination advice); bad values are 400 with
 * the field named; others may not set them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminHospital, buildPath, Hospital, routes } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { send, signInAll } from '../../test/crew-api.js';

const ST_MARYS = IDS.hospitals.stMarys;

describe('hospital capabilities', () => {
  let t: TestApp;
  let admin: string, ed1: string, medic1: string;
  const patch = (token: string, body: unknown) =>
    send(t, 'PATCH', buildPath(routes.adminUpdateHospital.path, { id: ST_MARYS }), token, { body, key: null });

  beforeAll(async () => {
    t = await createTestApp();
    [admin, ed1, medic1] = await signInAll(t, ['admin', 'ed1', 'medic1']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('comes with the seed, is changed by an org admin, and reaches crews with the hospital', async () => {
    const before = Hospital.parse(
      (await send(t, 'GET', buildPath(routes.hospital.path, { id: ST_MARYS }), medic1, { key: null })).json(),
    );
    expect(before.capabilities).toEqual({ strokeCenter: 'primary', pci: false, traumaLevel: 3 });
    const capabilities = { strokeCenter: 'thrombectomy', pci: true, traumaLevel: 2 };
    const res = await patch(admin, { capabilities });
    expect(res.statusCode, res.body).toBe(200);
    expect(AdminHospital.parse(res.json()).capabilities).toEqual(capabilities);
    const after = Hospital.parse(
      (await send(t, 'GET', buildPath(routes.hospital.path, { id: ST_MARYS }), medic1, { key: null })).json(),
    );
    expect(after.capabilities).toEqual(capabilities);
  });

  it('refuses bad values with the field named, and callers who are not org admins', async () => {
    for (const capabilities of [
      { strokeCenter: 'gold', pci: false, traumaLevel: null },
      { strokeCenter: null, pci: 'yes', traumaLevel: null },
      { strokeCenter: null, pci: false, traumaLevel: 7 },
    ]) {
      const res = await patch(admin, { capabilities });
      expect(res.statusCode, res.body).toBe(400);
      expect((res.json() as { message: string }).message).toMatch(/capabilities|strokeCenter|pci|traumaLevel/);
    }
    expect((await patch(ed1, { capabilities: { strokeCenter: null, pci: false, traumaLevel: null } })).statusCode).toBe(
      403,
    );
  });
});
