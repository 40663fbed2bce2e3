// The console's protocol uploads (issue 13): an admin uploads a PDF or Markdown file, it is read in the
// background (PDFs in a child process) with progress, and crews of that agency are answered from it.
// Refusals: who may upload, what may be uploaded, how much, how many at once; an unreadable file fails
// with its reason, and a job whose process stopped is reported as interrupted.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  PROTOCOL_IMPORTS_IN_FLIGHT_MAX,
  PROTOCOL_UPLOAD_MAX_BYTES,
  ProtocolImport,
  ProtocolLibraryResponse,
  QuestionResult,
  routes,
} from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { IDS } from '../../seed/demo-data.js';
import { INTERRUPTED } from './imports.js';
import { importFolders, protocolDataDir } from './testing/protocol-data.js';
import { tinyPdf } from './testing/tiny-pdf.js';

const HILLTOP = IDS.agencies.hilltop;
const RIVERSIDE = IDS.agencies.riverside;

const HEAT_STROKE = [
  [
    'TREATMENT PROTOCOL H-71',
    'HEAT STROKE',
    'Date: 7/1/2025 Page 1 of 2',
    'Cool the patient with ice packs to the groin and axillae.',
  ],
  ['HEAT STROKE', 'Protocol: H-71 Page 2 of 2', 'Give normal saline 1 L IV for heat stroke with hypotension.'],
];

describe('protocol uploads in the console', () => {
  let t: TestApp;
  let admin: string; // organisation admin
  let medic1: string; // administers Hilltop only
  let medic2: string; // crew of Riverside, administers nothing

  const upload = (token: string | null, query: Record<string, string>, bytes: Uint8Array, type: string) =>
    t.app.inject({
      method: 'POST',
      url: `${routes.protocolUpload.path}?${new URLSearchParams(query).toString()}`,
      headers: { ...(token ? { authorization: authorizationHeader(token) } : {}), 'content-type': type },
      payload: Buffer.from(bytes),
    });

  /** Polls the job until it is done or failed; the test's own timeout bounds it. */
  async function finished(id: string, token = admin): Promise<ProtocolImport> {
    for (;;) {
      const res = await t.get(routes.protocolImport.path.replace(':id', id), token);
      expect(res.statusCode).toBe(200);
      const job = ProtocolImport.parse(res.json());
      if (job.status === 'done' || job.status === 'failed') return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const library = async (agencyId: string, token = admin) => {
    const res = await t.get(`${routes.protocolLibrary.path}?agencyId=${agencyId}`, token);
    expect(res.statusCode).toBe(200);
    return ProtocolLibraryResponse.parse(res.json());
  };

  const ask = async (token: string, agencyId: string, question: string) => {
    const res = await t.post(
      '/questions/',
      {
        question,
        responseType: 'summary',
        questionUuid: randomUUID(),
        organization: { id: agencyId, type: 'emsAgency' },
      },
      token,
    );
    expect(res.statusCode).toBe(200);
    return QuestionResult.parse(res.json());
  };

  beforeAll(async () => {
    t = await createTestApp();
    [admin, medic1, medic2] = await Promise.all([t.signIn('admin'), t.signIn('medic1'), t.signIn('medic2')]);
  });
  afterAll(() => t.close());

  it('reads an uploaded PDF in the background, shows its pages, and answers the agency crews from it', async () => {
    const res = await upload(
      medic1,
      { agencyId: HILLTOP, fileName: 'H-71 Heat Stroke.pdf' },
      tinyPdf(HEAT_STROKE),
      'application/pdf',
    );
    expect(res.statusCode).toBe(202);
    const queued = ProtocolImport.parse(res.json());
    expect(queued).toMatchObject({
      agencyId: HILLTOP,
      fileName: 'H-71 Heat Stroke.pdf',
      status: 'queued',
      pagesDone: 0,
    });

    const job = await finished(queued.id, medic1);
    expect(job).toMatchObject({
      status: 'done',
      outcome: 'added',
      title: 'HEAT STROKE',
      pagesDone: 2,
      pagesTotal: 2,
      message: null,
    });

    const { documents, imports } = await library(HILLTOP, medic1);
    expect(documents).toContainEqual(
      expect.objectContaining({ fileName: 'H-71 Heat Stroke.pdf', title: 'HEAT STROKE', pages: 2, versions: 1 }),
    );
    expect(imports[0]?.id).toBe(queued.id);

    const answer = await ask(medic1, HILLTOP, 'heat stroke cooling with ice packs');
    expect(answer.answerKind).not.toBe('declined');
    expect(answer.pageLinks[0]).toMatchObject({ documentTitle: 'HEAT STROKE', protocolNumber: 'H-71', page: 1 });
    // Another agency never gets it.
    expect(
      (await ask(medic2, RIVERSIDE, 'heat stroke cooling with ice packs')).pageLinks.map((l) => l.documentTitle),
    ).not.toContain('HEAT STROKE');
  });

  it('leaves the same bytes as they are and makes changed bytes a new version', async () => {
    const name = { agencyId: HILLTOP, fileName: 'H-71 Heat Stroke.pdf' };
    const same = await upload(admin, name, tinyPdf(HEAT_STROKE), 'application/pdf');
    expect((await finished(ProtocolImport.parse(same.json()).id)).outcome).toBe('unchanged');

    const changed = [HEAT_STROKE[0]!, [...HEAT_STROKE[1]!, 'Recheck the core temperature every 5 minutes.']];
    const next = await upload(admin, name, tinyPdf(changed), 'application/octet-stream');
    expect(await finished(ProtocolImport.parse(next.json()).id)).toMatchObject({ status: 'done', outcome: 'updated' });
    const document = (await library(HILLTOP)).documents.find((d) => d.fileName === name.fileName);
    expect(document?.versions).toBe(2);
  });

  it('imports Markdown by its sections', async () => {
    const text = '# Drowning\n\nProtocol: W-12\n\n## Treatment\n\nGive oxygen 15 L/min by non-rebreather mask.\n';
    const res = await upload(
      admin,
      { agencyId: HILLTOP, fileName: 'drowning.md' },
      new TextEncoder().encode(text),
      'text/markdown',
    );
    expect(res.statusCode).toBe(202);
    expect(await finished(ProtocolImport.parse(res.json()).id)).toMatchObject({
      status: 'done',
      outcome: 'added',
      title: 'Drowning',
      // The part above the first ## (its Protocol: line) and the Treatment section.
      pagesDone: 2,
      pagesTotal: 2,
    });
  });

  it('fails an unreadable PDF with its reason and leaves the library as it was', async () => {
    const before = (await library(HILLTOP)).documents.length;
    const broken = new TextEncoder().encode('%PDF-1.4\nthis is not really a PDF\n%%EOF\n');
    const res = await upload(admin, { agencyId: HILLTOP, fileName: 'broken.pdf' }, broken, 'application/pdf');
    expect(res.statusCode).toBe(202);
    const job = await finished(ProtocolImport.parse(res.json()).id);
    expect(job.status).toBe('failed');
    expect(job.message).toMatch(/^The file could not be read: \S/);
    expect((await library(HILLTOP)).documents.length).toBe(before);
  });

  it('lets only organisation admins and the agency admins upload or look', async () => {
    const pdf = tinyPdf(HEAT_STROKE);
    expect((await upload(null, { agencyId: HILLTOP, fileName: 'a.pdf' }, pdf, 'application/pdf')).statusCode).toBe(401);
    expectClientError(await upload(medic2, { agencyId: RIVERSIDE, fileName: 'a.pdf' }, pdf, 'application/pdf'), 403);
    expectClientError(await upload(medic1, { agencyId: RIVERSIDE, fileName: 'a.pdf' }, pdf, 'application/pdf'), 403);
    expectClientError(await t.get(`${routes.protocolLibrary.path}?agencyId=${RIVERSIDE}`, medic1), 403);
    const own = ProtocolImport.parse(
      (await upload(admin, { agencyId: RIVERSIDE, fileName: 'r.pdf' }, pdf, 'application/pdf')).json(),
    );
    expectClientError(await t.get(routes.protocolImport.path.replace(':id', own.id), medic1), 403);
    await finished(own.id);
    expectClientError(
      await upload(admin, { agencyId: 'no-such-agency', fileName: 'a.pdf' }, pdf, 'application/pdf'),
      404,
    );
  });

  it('refuses what is not a protocol file, with the reason', async () => {
    const pdf = tinyPdf(HEAT_STROKE);
    const q = (fileName: string) => ({ agencyId: HILLTOP, fileName });
    expect(
      expectClientError(await upload(admin, q('notes.docx'), pdf, 'application/octet-stream'), 400).message,
    ).toMatch(/Only PDF, Markdown and HTML/);
    expect(expectClientError(await upload(admin, q('../etc/x.pdf'), pdf, 'application/pdf'), 400).message).toMatch(
      /plain file name/,
    );
    expect(
      expectClientError(await upload(admin, q('fake.pdf'), new TextEncoder().encode('hello'), 'application/pdf'), 400)
        .message,
    ).toMatch(/not a PDF/);
    expect(expectClientError(await upload(admin, q('a.pdf'), pdf, 'image/png'), 415).message).toMatch(/image\/png/);
    expect(
      expectClientError(await upload(admin, q('a.md'), new Uint8Array([0xff, 0xfe, 0x00]), 'text/markdown'), 400)
        .message,
    ).toMatch(/UTF-8/);
    expect(
      expectClientError(await upload(admin, q('a.pdf'), new Uint8Array(), 'application/pdf'), 400).message,
    ).toMatch(/empty/);
  });

  it('refuses a file over the limit before reading it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${routes.protocolUpload.path}?agencyId=${HILLTOP}&fileName=big.pdf`,
      headers: { authorization: authorizationHeader(admin), 'content-type': 'application/pdf' },
      payload: Buffer.alloc(PROTOCOL_UPLOAD_MAX_BYTES + 1, 0x20),
    });
    expect(expectClientError(res, 413).message).toMatch(/larger than 50 MB/);
  });

  it('bounds the imports an agency runs at once, and reports a job whose process stopped as interrupted', async () => {
    const at = t.clock.now().toISOString();
    const row = (id: string) => ({
      id,
      agency_id: RIVERSIDE,
      source_name: `${id}.pdf`,
      byte_size: 10,
      status: 'reading',
      pages_done: 1,
      pages_total: 5,
      outcome: null,
      title: null,
      message: null,
      created_by: 'admin',
      created_at: at,
      updated_at: at,
      finished_at: null,
    });
    const ids = Array.from({ length: PROTOCOL_IMPORTS_IN_FLIGHT_MAX }, () => randomUUID());
    await t.database.db.insertInto('protocol_imports').values(ids.map(row)).execute();
    const pdf = tinyPdf(HEAT_STROKE);
    expect(
      expectClientError(await upload(admin, { agencyId: RIVERSIDE, fileName: 'x.pdf' }, pdf, 'application/pdf'), 429)
        .message,
    ).toMatch(/already importing/);

    t.clock.advance(11 * 60 * 1000);
    const stale = ProtocolImport.parse((await t.get(routes.protocolImport.path.replace(':id', ids[0]!), admin)).json());
    expect(stale).toMatchObject({ status: 'failed', message: INTERRUPTED });
    const res = await upload(admin, { agencyId: RIVERSIDE, fileName: 'x.pdf' }, pdf, 'application/pdf');
    expect(res.statusCode).toBe(202);
    await finished(ProtocolImport.parse(res.json()).id);
  });

  const data = protocolDataDir();
  it.skipIf(!data)(
    'imports a real Los Angeles County protocol through the upload',
    async () => {
      const file = path.join(importFolders(data!).la, '1210-CardiacArrest.pdf');
      if (!existsSync(file)) return;
      const res = await upload(
        admin,
        { agencyId: RIVERSIDE, fileName: '1210-CardiacArrest.pdf' },
        readFileSync(file),
        'application/pdf',
      );
      const job = await finished(ProtocolImport.parse(res.json()).id);
      expect(job).toMatchObject({ status: 'done', outcome: 'added' });
      expect(job.pagesTotal).toBeGreaterThan(1);
      expect(job.pagesDone).toBe(job.pagesTotal);
    },
    120_000,
  );
});
