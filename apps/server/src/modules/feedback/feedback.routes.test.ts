import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_NAME, CLIENT_VERSION, FeedbackResponse, routes, TEXT_MAX_LENGTH } from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';

const clientInfo = { client: CLIENT_NAME, clientVersion: CLIENT_VERSION };

describe('feedback routes', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.signIn('medic2');
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await t.post(routes.feedback.path, { message: 'hi', clientInfo }), 401);
  });

  it('stores the feedback with who sent it and answers 201', async () => {
    const res = await t.post(
      routes.feedback.path,
      { message: 'The truck list loads slowly on LTE.', clientInfo },
      token,
    );
    expect(res.statusCode).toBe(201);
    const body = FeedbackResponse.parse(res.json());
    const row = await t.database.db
      .selectFrom('feedback')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: 'user-medic2', client: CLIENT_NAME, client_version: CLIENT_VERSION });
    expect(row.message).toBe('The truck list loads slowly on LTE.');
  });

  it('refuses missing fields, wrong types, blank and oversized messages without writing anything', async () => {
    const count = async () => (await t.database.db.selectFrom('feedback').select('id').execute()).length;
    const before = await count();
    expect(expectClientError(await t.post(routes.feedback.path, { clientInfo }, token), 400).message).toBe(
      'body.message: message is required',
    );
    expectClientError(await t.post(routes.feedback.path, { message: '   ', clientInfo }, token), 400);
    expect(expectClientError(await t.post(routes.feedback.path, { message: 'x' }, token), 400).message).toMatch(
      /body\.clientInfo/,
    );
    expectClientError(await t.post(routes.feedback.path, { message: 12, clientInfo }, token), 400);
    expectClientError(
      await t.post(routes.feedback.path, { message: 'x', clientInfo: { client: '', clientVersion: '1' } }, token),
      400,
    );
    expectClientError(
      await t.post(routes.feedback.path, { message: 'm'.repeat(TEXT_MAX_LENGTH + 1), clientInfo }, token),
      400,
    );
    expectClientError(await t.post(routes.feedback.path, { message: 'm'.repeat(1_000_000), clientInfo }, token), 400);
    expect(await count()).toBe(before);
  });
});
