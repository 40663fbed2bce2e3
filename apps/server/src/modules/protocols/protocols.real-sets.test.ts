// The assistant on real protocol sets (issue 13 "Tests"): San Diego County's packet imported as
// Riverside's library and Los Angeles County's protocols as Lakeside's; 55 medic questions, each with
// the page that answers it. Pages are checked against the pdftotext rendering shipped with the data,
// not against our own importer's reading. Skipped, with a message, where the data is absent.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, QuestionResult } from '@inbound/contract';
import { createTestApp, type TestApp } from '../../test/app.js';
import { IDS } from '../../seed/demo-data.js';
import { createProtocolLibrary } from './library.js';
import { protocolFilesDir } from './protocols.module.js';
import { createProtocolsRepository } from './protocols.repository.js';
import { AMOUNT } from './retrieval.js';
import { groundTruthPages, importFolders, normalizeForComparison, protocolDataDir } from './testing/protocol-data.js';
import { OUT_OF_LIBRARY, QUESTION_SET, type SetAgency } from './testing/question-set.js';

const dataDir = protocolDataDir();
if (!dataDir)
  console.warn('protocol sets not found (shared/data/protocols or PROTOCOL_DATA_DIR): real-set tests skipped');

const AGENCY: Record<SetAgency, string> = { sd: IDS.agencies.riverside, la: IDS.agencies.lakeside };
/** medic2 is on Riverside only, medic3 on Lakeside only. */
const ASKER: Record<SetAgency, string> = { sd: 'medic2', la: 'medic3' };
const compact = (text: string) =>
  normalizeForComparison(text)
    .replace(/(\d),(\d{3})/g, '$1$2')
    .replace(/\s+/g, '');

describe.skipIf(!dataDir)('protocol assistant on the San Diego and Los Angeles sets', () => {
  let t: TestApp;
  const tokens = {} as Record<SetAgency, string>;
  const files = new Map<string, { agencyId: string; file: string }>();
  const truth = dataDir ? groundTruthPages(dataDir) : null;

  const ask = async (agency: SetAgency, question: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/questions/',
      headers: { authorization: authorizationHeader(tokens[agency]) },
      payload: {
        question,
        responseType: 'summary',
        questionUuid: randomUUID(),
        organization: { id: AGENCY[agency], type: 'emsAgency' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return QuestionResult.parse(res.json());
  };
  const versionOf = (url: string) => decodeURIComponent(/documents\/([^/]+)\/file/.exec(url)![1]!);

  beforeAll(async () => {
    t = await createTestApp();
    const library = createProtocolLibrary({
      repo: createProtocolsRepository(t.database.db),
      clock: t.clock,
      filesDir: protocolFilesDir(t.config),
    });
    const folders = importFolders(dataDir!);
    await library.importFolder(AGENCY.sd, folders.sd);
    await library.importFolder(AGENCY.la, folders.la);
    const versions = await t.database.db
      .selectFrom('protocol_versions as v')
      .innerJoin('protocol_documents as d', 'd.id', 'v.document_id')
      .select(['v.id', 'v.agency_id', 'd.source_name'])
      .execute();
    for (const v of versions) files.set(v.id, { agencyId: v.agency_id, file: v.source_name });
    tokens.sd = await t.signIn(ASKER.sd);
    tokens.la = await t.signIn(ASKER.la);
  }, 180_000);
  afterAll(() => t?.close());

  it('imports both sets with their protocol numbers and printed pages', () => {
    expect([...files.values()].filter((f) => f.agencyId === AGENCY.sd)).toHaveLength(1);
    expect([...files.values()].filter((f) => f.agencyId === AGENCY.la)).toHaveLength(37);
  });

  it(`answers ${QUESTION_SET.length} medic questions from the right page, quoting doses as printed, never from the other agency`, async () => {
    expect(QUESTION_SET.length).toBeGreaterThanOrEqual(40);
    let top1 = 0;
    let quoted = 0;
    for (const q of QUESTION_SET) {
      // The set itself is right: the page it names prints the answer.
      expect(truth!.holds(q.file, q.page, q.expect), `${q.question}: page ${q.page} of ${q.file}`).toBe(true);
      const result = await ask(q.agency, q.question);
      expect(result.answerKind, q.question).toBe('extractive');
      const cited = result.pageLinks.map((link) => ({ ...files.get(versionOf(link.url))!, page: link.page }));
      // Only the asker's agency's documents are ever cited.
      for (const c of cited) expect(c.agencyId, q.question).toBe(AGENCY[q.agency]);
      const holds = cited.map((c) => truth!.holds(c.file, c.page, q.expect));
      expect(holds.some(Boolean), `${q.question}: no cited page prints "${q.expect.join('", "')}"`).toBe(true);
      if (holds[0]) top1++;

      // Every amount quoted is printed on the page cited for it: nothing is invented or changed.
      const first = cited[0]!;
      for (const line of result.summarizedResult.split('\n').filter((l) => l.startsWith('> '))) {
        for (const amount of line.match(new RegExp(AMOUNT.source, 'gi')) ?? []) {
          expect(compact(truth!.text(first.file, first.page)), `${q.question}: ${amount}`).toContain(compact(amount));
        }
      }
      if (
        normalizeForComparison(result.detailedResult.split('\n\n[2]')[0]!).includes(
          normalizeForComparison(q.expect[0]!),
        )
      )
        quoted++;
    }
    console.info(
      `top-1 ${top1}/${QUESTION_SET.length}, answer quoted from the first citation ${quoted}/${QUESTION_SET.length}`,
    );
    expect(top1 / QUESTION_SET.length).toBeGreaterThanOrEqual(0.9);
    expect(quoted / QUESTION_SET.length).toBeGreaterThanOrEqual(0.85);
  }, 120_000);

  it('declines questions outside the library', async () => {
    for (const q of OUT_OF_LIBRARY) {
      const result = await ask(q.agency, q.question);
      expect(result.answerKind, q.question).toBe('declined');
      expect(result.summarizedResult).toMatch(/not covered by your agency's protocols/);
    }
  });
});
