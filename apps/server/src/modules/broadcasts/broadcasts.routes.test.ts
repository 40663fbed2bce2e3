import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BroadcastChannelsResponse,
  BroadcastRecipientsResponse,
  BroadcastsResponse,
  buildPath,
  routes,
} from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { IDS } from '../../seed/demo-data.js';

describe('broadcasts routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await t.get(routes.broadcastChannels.path), 401);
    expectClientError(await t.get(routes.broadcasts.path), 401);
  });

  it('answers one broadcast channel per team of the user', async () => {
    const body = BroadcastChannelsResponse.parse(
      (await t.get(routes.broadcastChannels.path, await t.signIn('medic1'))).json(),
    );
    expect(body.channels.broadcast.sort()).toEqual(
      [IDS.agencies.riverside, IDS.agencies.lakeside, IDS.agencies.hilltop].map((id) => `broadcast:${id}`).sort(),
    );
    const ed1 = BroadcastChannelsResponse.parse(
      (await t.get(routes.broadcastChannels.path, await t.signIn('ed1'))).json(),
    );
    expect(ed1.channels.broadcast).toEqual([]);
  });

  it("answers the broadcasts sent to the user's teams, newest first, naming only the user's teams", async () => {
    const medic3 = BroadcastsResponse.parse((await t.get(routes.broadcasts.path, await t.signIn('medic3'))).json());
    expect(medic3.data.map((b) => b.senderOrganizationName)).toEqual([
      'Lakeside Medical Center',
      "St. Mary's Hospital",
    ]);
    expect(medic3.data.every((b) => b.emsAgencies.every((id) => id === IDS.agencies.lakeside))).toBe(true);

    const medic2 = BroadcastsResponse.parse((await t.get(routes.broadcasts.path, await t.signIn('medic2'))).json());
    expect(medic2.data).toHaveLength(3);
    const times = medic2.data.map((b) => b.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    const dispatch = medic2.data.find((b) => b.type === 'emsDispatch')!;
    expect(dispatch.caseNumber).toBeTruthy();
    expect(medic2.data.some((b) => b.urgent)).toBe(true);
  });
  describe('GET broadcast recipients', () => {
    const recipientsPath = (id: string) => buildPath(routes.broadcastRecipients.path, { id });

    it("answers the hospital's delivering agencies by name, to its ED staff and org admins", async () => {
      const ed1 = BroadcastRecipientsResponse.parse(
        (await t.get(recipientsPath(IDS.hospitals.riversideRegional), await t.signIn('ed1'))).json(),
      );
      expect(ed1.agencies).toEqual([{ _id: IDS.agencies.riverside, name: 'Riverside EMS' }]);
      const admin = BroadcastRecipientsResponse.parse(
        (await t.get(recipientsPath(IDS.hospitals.stMarys), await t.signIn('admin'))).json(),
      );
      expect(admin.agencies).toEqual([
        { _id: IDS.agencies.lakeside, name: 'Lakeside Fire Rescue' },
        { _id: IDS.agencies.riverside, name: 'Riverside EMS' },
      ]);
    });

    it('refuses strangers, crews and unknown hospitals', async () => {
      expectClientError(await t.get(recipientsPath(IDS.hospitals.riversideRegional)), 401);
      expectClientError(await t.get(recipientsPath(IDS.hospitals.stMarys), await t.signIn('ed1')), 403);
      expectClientError(await t.get(recipientsPath(IDS.hospitals.riversideRegional), await t.signIn('medic1')), 403);
      expectClientError(await t.get(recipientsPath('no-such-hospital'), await t.signIn('admin')), 404);
    });
  });
});
