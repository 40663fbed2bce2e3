// POST /questions/ and POST /feedback/ (spec §7) on the demo library: authentication, agency scope,
// bad input, streaming shape, details on the stored answer, feedback, the admin's review list,
// signed document links, versioning, and a question made from the case itself.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  PROTOCOL_STREAM_SEPARATOR,
  QuestionResult,
  routes,
  type QuestionBody,
} from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { RIVERSIDE_TRUCK, send, startCase } from '../../test/crew-api.js';
import { IDS } from '../../seed/demo-data.js';
import { DEMO_LIBRARY_DIR, seedDemoProtocols } from './demo-library.js';
import { createProtocolLibrary } from './library.js';
import { protocolFilesDir } from './protocols.module.js';
import { createProtocolsRepository } from './protocols.repository.js';

const RIVERSIDE = IDS.agencies.riverside;
const LAKESIDE = IDS.agencies.lakeside;
const HILLTOP = IDS.agencies.hilltop;

const body = (overrides: Partial<QuestionBody> = {}): QuestionBody => ({
  question: 'What is the aspirin dose for chest pain?',
  responseType: 'summary',
  questionUuid: randomUUID(),
  organization: { id: RIVERSIDE, type: 'emsAgency' },
  emtLevel: 'Paramedic',
  ...overrides,
});

describe('protocol questions and feedback', () => {
  let t: TestApp;
  let medic2: string; // Riverside only
  let medic3: string; // Lakeside only
  let medic1: string; // member of Riverside and Lakeside, administers Hilltop

  const ask = (payload: unknown, token: string | null, streaming = false) =>
    t.app.inject({
      method: 'POST',
      url: '/questions/',
      headers: {
        ...(token ? { authorization: authorizationHeader(token) } : {}),
        ...(streaming ? { streaming: 'true' } : {}),
      },
      payload: payload as object,
    });

  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoProtocols(t.database.db, t.clock, protocolFilesDir(t.config));
    [medic1, medic2, medic3] = await Promise.all([t.signIn('medic1'), t.signIn('medic2'), t.signIn('medic3')]);
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await ask(body(), null), 401);
    expectClientError(await t.post(routes.protocolFeedback.path, { questionUuid: randomUUID(), feedback: true }), 401);
  });

  it("answers only for the asker's own agencies", async () => {
    const res = expectClientError(await ask(body({ organization: { id: LAKESIDE, type: 'emsAgency' } }), medic2), 403);
    expect(res.message).toBe('You are not a member of this agency.');
  });

  it('refuses bad input with a message naming the problem, and stores nothing', async () => {
    const count = async () => (await t.database.db.selectFrom('protocol_questions').select('id').execute()).length;
    const before = await count();
    expect(expectClientError(await ask({ ...body(), questionUuid: 'nope' }, medic2), 400).message).toMatch(
      /questionUuid/,
    );
    expect(expectClientError(await ask({ ...body(), responseType: 'long' }, medic2), 400).message).toMatch(
      /responseType/,
    );
    expect(expectClientError(await ask({ ...body(), organization: undefined }, medic2), 400).message).toMatch(
      /organization/,
    );
    expectClientError(await ask({ ...body(), question: 'x'.repeat(1_001) }, medic2), 400);
    expect(expectClientError(await ask(body({ question: '   ' }), medic2), 400).message).toBe(
      'question is required outside a case.',
    );
    expect(await count()).toBe(before);
  });

  it('streams the answer text, then +++ and the JSON of §7; the quote is the document’s', async () => {
    const res = await ask(body(), medic2, true);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const [text, json] = res.body.split(PROTOCOL_STREAM_SEPARATOR);
    const result = QuestionResult.parse(JSON.parse(json!));
    expect(text).toBe(result.summarizedResult);
    expect(result.answerKind).toBe('extractive');
    expect(text).toContain('Aspirin 324 mg chewable PO');
    expect(text).toContain('Chest Pain / Suspected Acute Coronary Syndrome (DEMO-110)');
    expect(result.pageLinks[0]).toMatchObject({
      ref: 1,
      protocolNumber: 'DEMO-110',
      printedPage: 'Section 3: Treatment',
    });
    expect(result.chatSessionID).not.toBe('');
  });

  it('answers the detailed response for the same questionUuid from what was stored', async () => {
    const first = QuestionResult.parse((await ask(body({ questionUuid: randomUUID() }), medic2)).json());
    const detailed = await ask(
      body({ questionUuid: first.questionUuid, responseType: 'detailed', chatSessionID: first.chatSessionID }),
      medic2,
      true,
    );
    const [text] = detailed.body.split(PROTOCOL_STREAM_SEPARATOR);
    expect(text).toBe(first.detailedResult);
    expect(text).toContain('[1]');
    // Another user cannot read or reuse it.
    expectClientError(await ask(body({ questionUuid: first.questionUuid }), medic1), 409);
  });

  it('declines what the library does not cover, naming the closest protocols', async () => {
    const result = QuestionResult.parse(
      (await ask(body({ question: 'What is the remdesivir dose for COVID pneumonia?' }), medic2)).json(),
    );
    expect(result.answerKind).toBe('declined');
    expect(result.summarizedResult).toMatch(/^This is not covered by your agency's protocols\./);
  });

  it('asks about the case when the question is empty inside one: complaint and age shape the query', async () => {
    const started = await startCase(t, medic2, RIVERSIDE, RIVERSIDE_TRUCK);
    expect(
      (await send(t, 'PATCH', `/v4/twiageCases/${started.id}`, medic2, { body: { complaint: 'stroke' } })).statusCode,
    ).toBe(200);
    const result = QuestionResult.parse((await ask(body({ question: '', twiageCaseId: started.id }), medic2)).json());
    expect(result.answerKind, result.summarizedResult).toBe('extractive');
    expect(result.pageLinks[0]?.protocolNumber).toBe('DEMO-120');
    const stored = await t.database.db
      .selectFrom('protocol_questions')
      .select(['question', 'case_id'])
      .where('id', '=', result.questionUuid)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ question: 'Case: Stroke', case_id: started.id });
    // Someone else's case is not theirs to ask about.
    expectClientError(
      await ask(
        body({ question: '', twiageCaseId: started.id, organization: { id: LAKESIDE, type: 'emsAgency' } }),
        medic3,
      ),
      403,
    );
  });

  it('stores feedback (text required on thumbs down) and shows it to the agency admin only', async () => {
    const asked = QuestionResult.parse(
      (
        await ask(
          body({ question: 'Glucagon dose with no IV access', organization: { id: HILLTOP, type: 'emsAgency' } }),
          medic1,
        )
      ).json(),
    );
    const down = { questionUuid: asked.questionUuid, feedback: false };
    expect(expectClientError(await t.post(routes.protocolFeedback.path, down, medic1), 400).message).toMatch(
      /feedbackText is required/,
    );
    expectClientError(await t.post(routes.protocolFeedback.path, { ...down, feedbackText: 'wrong' }, medic2), 404);
    const saved = await t.post(
      routes.protocolFeedback.path,
      { ...down, feedbackText: 'Quote the pediatric dose too' },
      medic1,
    );
    expect(saved.statusCode).toBe(201);

    const review = await t.get(`${routes.protocolReview.path}?agencyId=${HILLTOP}`, medic1);
    expect(review.statusCode).toBe(200);
    const item = (review.json() as { items: { questionUuid: string }[] }).items.find(
      (i) => i.questionUuid === asked.questionUuid,
    );
    expect(item).toMatchObject({
      question: 'Glucagon dose with no IV access',
      feedback: { positive: false, text: 'Quote the pediatric dose too' },
    });
    expect(JSON.stringify(item)).toContain('Glucagon 1 mg IM');
    expectClientError(await t.get(`${routes.protocolReview.path}?agencyId=${HILLTOP}`, medic2), 403);
    expectClientError(await t.get(`${routes.protocolReview.path}?agencyId=${RIVERSIDE}`, medic1), 403);
    // The organisation admin reviews every agency.
    const admin = await t.signIn('admin');
    expect((await t.get(`${routes.protocolReview.path}?agencyId=${HILLTOP}`, admin)).statusCode).toBe(200);
  });

  it('opens a cited document through its signed link only; a new version keeps old citations opening', async () => {
    const first = QuestionResult.parse((await ask(body({ question: 'BE-FAST stroke scale' }), medic2)).json());
    const link = first.pageLinks[0]!;
    expect(link.url).toMatch(/#page=\d+$/);
    const url = link.url.split('#')[0]!;
    const opened = await t.get(url);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toMatch(/^text\/plain/); // Markdown is never served as HTML
    expect(opened.body).toContain('Use BE-FAST');
    expectClientError(await t.get(url.replace(/sig=[^&]+/, 'sig=forged')), 403);
    expectClientError(await t.get(url.replace(/u=[^&]+/, 'u=user-medic3')), 403);

    // A new version of stroke.md: new questions cite it, the old link still opens the old text.
    const folder = mkdtempSync(path.join(tmpdir(), 'protocols-v2-'));
    writeFileSync(
      path.join(folder, 'stroke.md'),
      '# Stroke / Transient Ischemic Attack\n\nProtocol: DEMO-120\n\n## Assessment\n\n- Use BE-FAST and the LAMS score 4 or 5 for large vessel occlusion.\n',
    );
    const library = createProtocolLibrary({
      repo: createProtocolsRepository(t.database.db),
      clock: t.clock,
      filesDir: protocolFilesDir(t.config),
    });
    // The same bytes again change nothing.
    expect(new Set((await library.importFolder(RIVERSIDE, DEMO_LIBRARY_DIR)).map((o) => o.status))).toEqual(
      new Set(['unchanged']),
    );
    expect(await library.importFolder(RIVERSIDE, folder)).toEqual([
      { file: 'stroke.md', status: 'updated', pages: 2, title: 'Stroke / Transient Ischemic Attack' },
    ]);
    const second = QuestionResult.parse((await ask(body({ question: 'BE-FAST stroke LAMS score' }), medic2)).json());
    expect(second.summarizedResult, second.summarizedResult).toContain('LAMS score 4 or 5');
    expect((await t.get(url)).body).toContain('Record the last known well time');
  });
});
