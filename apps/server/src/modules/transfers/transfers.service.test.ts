import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaseTransfer, TRANSFER_LIFETIME_MS, type RealtimeEvent } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { RIVERSIDE_TRUCK, startCase } from '../../test/crew-api.js';
import type { Principal } from '../auth/principal.js';
import { createCasesRepository } from '../cases/cases.repository.js';
import { createCasesService, type CasesServiceDeps } from '../cases/cases.service.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import { createTransfersRepository } from './transfers.repository.js';
import { createTransfersService } from './transfers.service.js';

const medic1: Principal = {
  userId: IDS.users.medic1,
  username: 'medic1',
  sessionId: 'session',
  roles: ['crew'],
  memberOf: [IDS.agencies.riverside, IDS.agencies.lakeside],
  administers: [IDS.agencies.hilltop],
  teamIds: [IDS.agencies.riverside, IDS.agencies.lakeside, IDS.agencies.hilltop],
  edHospitalIds: [],
};

describe('transfer expiry sweep', () => {
  let t: TestApp;
  const publishedEvents: { channel: string; event: RealtimeEvent }[] = [];
  const publisher: RealtimePublisher = {
    publish(channel, event) {
      publishedEvents.push({ channel, event });
      return Promise.resolve({ seq: publishedEvents.length });
    },
    publishOnce(channel, event) {
      return this.publish(channel, event);
    },
    reauthorize: () => Promise.resolve(),
    isUserConnected: () => Promise.resolve(true),
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('expires open transfers past their lifetime once, and tells both crews', async () => {
    const service = createTransfersService({
      repo: createTransfersRepository(t.database.db),
      clock: t.clock,
      publisher,
      // The cases service's transfer steps need none of its reference reads.
      cases: createCasesService({
        repo: createCasesRepository(t.database.db),
        clock: t.clock,
        agencies: {} as CasesServiceDeps['agencies'],
        complaints: {} as CasesServiceDeps['complaints'],
        hospitals: {} as CasesServiceDeps['hospitals'],
      }),
      agencies: { agencyForCase: () => Promise.resolve(null) },
      push: { transferRequested: () => undefined },
    });
    const token = await t.signIn('medic1');
    const first = await service.create(medic1, (await startCase(t, token, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id);
    t.clock.advance(TRANSFER_LIFETIME_MS / 2);
    const second = await service.create(
      medic1,
      (await startCase(t, token, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id,
    );

    expect(await service.expireDue()).toBe(0);
    t.clock.advance(TRANSFER_LIFETIME_MS / 2);
    expect(await service.expireDue()).toBe(1);
    expect(await service.expireDue()).toBe(0);
    const last = publishedEvents.at(-1);
    expect(last?.channel).toBe(`transfer:${first._id}`);
    expect(CaseTransfer.parse(last?.event.data)).toMatchObject({
      status: 'expired',
      messageForReceiver: 'The case transfer expired.',
    });
    expect((await service.get(medic1, second._id)).status).toBe('open');
    t.clock.advance(TRANSFER_LIFETIME_MS / 2);
    expect(await service.expireDue()).toBe(1);
  });
});
