// The model path (issue 13 item 3): an OpenAI-compatible server that the test controls. A written
// answer streams through only when every sentence is cited and every number in it is printed in the
// passages it cites; otherwise it is dropped and the crew gets the quoted passages.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, PROTOCOL_STREAM_SEPARATOR, QuestionResult } from '@inbound/contract';
import { createTestApp, type TestApp } from '../../test/app.js';
import { IDS } from '../../seed/demo-data.js';
import type { Citation } from './answer.js';
import { seedDemoProtocols } from './demo-library.js';
import { checkAnswer } from './llm.js';
import { protocolFilesDir } from './protocols.module.js';

const passage = (ref: number, text: string): Citation => ({
  ref,
  passage: {
    id: `p${ref}`,
    versionId: 'v',
    documentTitle: 'Allergy',
    protocolNumber: 'X-1',
    page: ref,
    printedPage: `Page ${ref}`,
    text,
  },
});
const allergy = [
  passage(1, 'Epinephrine (1mg/mL) administer 0.5mg (0.5mL) IM in the lateral thigh\nDiphenhydramine 50 mg IV'),
  passage(2, 'Pediatric: Epinephrine 0.01 mg/kg IM, maximum 0.3 mg\nDosing chart 1,000 mg'),
];

describe('checkAnswer', () => {
  it('passes a cited answer whose numbers are all printed in what each sentence cites', () => {
    expect(
      checkAnswer('Give epinephrine 0.5 mg IM in the lateral thigh [1]. For a child, 0.01 mg/kg IM [2].', allergy),
    ).toEqual({ ok: true });
    expect(checkAnswer('Chart maximum is 1000 mg [2].', allergy)).toEqual({ ok: true });
  });

  it('refuses a changed dose, a unit that is not the printed one, a number from another citation, or an uncited sentence', () => {
    expect(checkAnswer('Give epinephrine 0.3 mg IM [1].', allergy).ok).toBe(false);
    expect(checkAnswer('Give epinephrine 0.01 mg IM [2].', allergy).ok).toBe(false);
    expect(checkAnswer('Diphenhydramine 50 mg IV [2].', allergy).ok).toBe(false);
    expect(checkAnswer('Give epinephrine 0.5 mg IM [1]. Repeat in 5 minutes.', allergy).ok).toBe(false);
    expect(checkAnswer('Give epinephrine 0.5 mg IM [3].', allergy).ok).toBe(false);
    expect(checkAnswer('', allergy).ok).toBe(false);
  });
});

describe('POST /questions/ with a model configured', () => {
  let model: Server;
  let t: TestApp;
  let token: string;
  /** What the test model answers next (summary, detailed); the requests it got. */
  let reply: { summary: string; detailed: string } = { summary: '', detailed: '' };
  const requests: { model: string; messages: { role: string; content: string }[]; auth: string | undefined }[] = [];

  beforeAll(async () => {
    model = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as (typeof requests)[number];
        requests.push({ ...body, auth: req.headers.authorization });
        const detailed = body.messages[0]!.content.includes('eight sentences');
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            choices: [{ message: { role: 'assistant', content: detailed ? reply.detailed : reply.summary } }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    const { port } = model.address() as AddressInfo;
    t = await createTestApp({
      env: { LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_MODEL: 'test-model', LLM_API_KEY: 'test-key' },
    });
    await seedDemoProtocols(t.database.db, t.clock, protocolFilesDir(t.config));
    token = await t.signIn('medic2');
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => model.close(resolve));
  });

  const ask = (question: string) =>
    t.app.inject({
      method: 'POST',
      url: '/questions/',
      headers: { authorization: authorizationHeader(token), streaming: 'true' },
      payload: {
        question,
        responseType: 'summary',
        questionUuid: randomUUID(),
        organization: { id: IDS.agencies.riverside, type: 'emsAgency' },
      },
    });

  it('streams a correct, cited answer written from the retrieved passages', async () => {
    reply = {
      summary: 'Give epinephrine 1 mg/mL 0.5 mg IM in the lateral thigh [1].',
      detailed:
        'Give epinephrine 1 mg/mL 0.5 mg IM in the lateral thigh [1]. It may be repeated every 5 minutes, up to 3 doses [1].',
    };
    const res = await ask('Epinephrine dose for anaphylaxis');
    const [text, json] = res.body.split(PROTOCOL_STREAM_SEPARATOR);
    const result = QuestionResult.parse(JSON.parse(json!));
    expect(text).toBe(reply.summary);
    expect(result).toMatchObject({ answerKind: 'llm', detailedResult: reply.detailed });
    const request = requests.at(-1)!;
    expect(request.model).toBe('test-model');
    expect(request.auth).toBe('Bearer test-key');
    // The model is given the agency's passages, numbered as the answer cites them.
    expect(request.messages[1]!.content).toContain('[1] Allergic Reaction / Anaphylaxis (DEMO-130)');
  });

  it('drops an answer with a wrong dose and answers with the quoted passages instead', async () => {
    reply = {
      summary: 'Give epinephrine 1 mg/mL 0.3 mg IM in the lateral thigh [1].',
      detailed: 'Give epinephrine 1 mg/mL 0.5 mg IM [1].',
    };
    const res = await ask('Epinephrine dose for anaphylaxis');
    const [text, json] = res.body.split(PROTOCOL_STREAM_SEPARATOR);
    const result = QuestionResult.parse(JSON.parse(json!));
    expect(result.answerKind).toBe('extractive');
    expect(text).not.toContain('0.3 mg IM in the lateral');
    expect(text).toContain('> - Epinephrine 1 mg/mL 0.5 mg IM in the lateral thigh');
  });

  it('falls back to the quoted passages when the model cannot be reached', async () => {
    await new Promise((resolve) => model.close(resolve));
    const result = QuestionResult.parse(
      JSON.parse((await ask('Glucagon dose')).body.split(PROTOCOL_STREAM_SEPARATOR)[1]!),
    );
    expect(result.answerKind).toBe('extractive');
    expect(result.summarizedResult).toContain('Glucagon 1 mg IM');
  });
});
