/**
 * Issue 10 item 7: where the spec leaves a field's type open, a client written from the spec alone
 * sends the other form — `destinationHospital` as the Case entity's `{ id }`, a number field's tag
 * value as a JSON number, a chat `timestamp` as epoch milliseconds. Each is accepted and stored in
 * the one form the server answers with; what is neither form is still a 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, Case, ChatMessage, routes } from '@inbound/contract';
import { IDS } from './seed/demo-data.js';
import { createTestApp, type TestApp } from './test/app.js';
import { CLIENT_TIME, RIVERSIDE_TRUCK, send, signInAll, startCase } from './test/crew-api.js';

const BLOOD_GLUCOSE = 'stroke.vitals-labs.blood-glucose';

describe('wire compatibility with spec-only clients', () => {
  let t: TestApp;
  let medic1: string;
  beforeAll(async () => {
    t = await createTestApp();
    [medic1] = await signInAll(t, ['medic1']);
  });
  afterAll(() => t.close());

  const casePath = (id: string) => buildPath(routes.patchCase.path, { id });
  const readCase = async (id: string) =>
    Case.parse((await send(t, 'GET', buildPath(routes.getCase.path, { id }), medic1)).json());

  it('takes destinationHospital as { id } like the plain id, and refuses an object without one', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    const hospital = IDS.hospitals.riversideRegional;
    const res = await send(t, 'PATCH', casePath(id), medic1, { body: { destinationHospital: { id: hospital } } });
    expect(res.statusCode).toBe(200);
    expect((await readCase(id)).destinationHospital).toEqual({ id: hospital });
    const bad = await send(t, 'PATCH', casePath(id), medic1, { body: { destinationHospital: { name: 'x' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/destinationHospital/);
  });

  it('takes a number field value as a JSON number, stored as its string', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    expect((await send(t, 'PATCH', casePath(id), medic1, { body: { complaint: 'stroke' } })).statusCode).toBe(200);
    const tags = buildPath(routes.addCaseTag.path, { id });
    expect((await send(t, 'POST', `${tags}?tagId=${BLOOD_GLUCOSE}`, medic1)).statusCode).toBe(200);
    const values = buildPath(routes.caseTagValues.path, { id, tagId: BLOOD_GLUCOSE });
    const field = { key: 'bloodGlucose', name: 'Blood Glucose', type: 'number' };
    const res = await send(t, 'PATCH', values, medic1, { body: { fields: [{ ...field, value: 98 }] } });
    expect(res.statusCode).toBe(200);
    const tag = (await readCase(id)).tags.find((entry) => entry.id === BLOOD_GLUCOSE);
    expect(tag?.values.at(-1)?.fields[0]?.value).toBe('98');
    const bad = await send(t, 'PATCH', values, medic1, { body: { fields: [{ ...field, value: true }] } });
    expect(bad.statusCode).toBe(400);
  });

  it('takes a chat timestamp as epoch milliseconds, answered as the ISO time', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    const path = buildPath(routes.postChatMessage.path, { id });
    const body = {
      clientCreatedAt: CLIENT_TIME,
      deviceId: 'web_ems',
      message: 'ETA 5',
      source: 'web_ems',
      senderOrganization: 'Riverside EMS',
    };
    const at = Date.parse(CLIENT_TIME);
    const res = await send(t, 'POST', path, medic1, { body: { ...body, timestamp: at } });
    expect(res.statusCode).toBe(201);
    expect(ChatMessage.parse(res.json()).timestamp).toBe(CLIENT_TIME);
    const bad = await send(t, 'POST', path, medic1, { body: { ...body, timestamp: -5 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/timestamp/);
  });
});
