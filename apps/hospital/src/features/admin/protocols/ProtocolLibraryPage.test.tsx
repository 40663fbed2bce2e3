// The console's protocol library page: checks a file before sending it, sends the bytes with the
// file's type to the upload route, follows the upload's progress and says why one failed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ProtocolImport, ProtocolLibraryResponse } from '@inbound/contract';
import { checkProtocolFile, describeImport, ProtocolLibraryPage } from './ProtocolLibraryPage';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const agencies = {
  agencies: [
    {
      id: 'agency-1',
      name: 'Riverside EMS',
      complaintSet: 'Standard',
      maxCaseLength: 120,
      hospitalCount: 2,
      truckCount: 3,
      updatedAt: '2026-11-20T10:00:00.000Z',
    },
  ],
};

const job = (overrides: Partial<ProtocolImport>): ProtocolImport => ({
  id: 'job-1',
  agencyId: 'agency-1',
  fileName: 'Stroke.pdf',
  byteSize: 120_000,
  status: 'queued',
  pagesDone: 0,
  pagesTotal: null,
  outcome: null,
  title: null,
  message: null,
  createdAt: '2026-11-25T13:00:00.000Z',
  finishedAt: null,
  ...overrides,
});

function renderPage(library: () => ProtocolLibraryResponse, onUpload: (url: string, init?: RequestInit) => Response) {
  const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = String(input);
    if (url.startsWith('/v4/admin/agencies')) return Promise.resolve(json(200, agencies));
    if (url.startsWith('/v4/admin/protocols/library')) return Promise.resolve(json(200, library()));
    return Promise.resolve(onUpload(url, init));
  });
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}
    >
      <ProtocolLibraryPage />
    </QueryClientProvider>,
  );
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('checkProtocolFile and describeImport', () => {
  it('refuses other files, empty ones and those over the limit before sending', () => {
    expect(checkProtocolFile({ name: 'notes.docx', size: 10 })).toMatch(/Only PDF, Markdown and HTML/);
    expect(checkProtocolFile({ name: 'a.pdf', size: 0 })).toBe('The file is empty.');
    expect(checkProtocolFile({ name: 'a.pdf', size: 60 * 1024 * 1024 })).toBe('The file is larger than 50 MB.');
    expect(checkProtocolFile({ name: 'S-144 Stroke.PDF', size: 10 })).toBeNull();
  });

  it('says what an upload is doing or did', () => {
    expect(describeImport(job({ status: 'reading', pagesDone: 12, pagesTotal: 139 }))).toBe('Reading page 12 of 139…');
    expect(describeImport(job({ status: 'done', outcome: 'added', title: 'STROKE', pagesTotal: 2 }))).toBe(
      'Added STROKE (2 pages).',
    );
    expect(describeImport(job({ status: 'done', outcome: 'unchanged' }))).toBe(
      'Unchanged: the same file as the current version.',
    );
    expect(describeImport(job({ status: 'failed', message: 'Invalid PDF structure.' }))).toBe(
      'Failed: Invalid PDF structure.',
    );
  });
});

describe('ProtocolLibraryPage', () => {
  it('uploads the file as it is and shows its progress, then the document', async () => {
    let current: ProtocolLibraryResponse = { documents: [], imports: [] };
    const fetch = renderPage(
      () => current,
      () => {
        current = { documents: [], imports: [job({ status: 'reading', pagesDone: 1, pagesTotal: 2 })] };
        return json(202, job({}));
      },
    );
    expect(await screen.findByText(/No protocol documents yet/)).toBeTruthy();

    const file = new File(['%PDF-1.4 …'], 'Stroke.pdf', { type: 'application/pdf' });
    await userEvent.upload(screen.getByLabelText('Protocol file (.pdf, .md, .html)'), file);
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));

    await waitFor(() => expect(screen.getByText('Reading page 1 of 2…')).toBeTruthy());
    const sent = fetch.mock.calls.find(([url]) => String(url).startsWith('/v4/admin/protocols/imports'));
    expect(String(sent?.[0])).toBe('/v4/admin/protocols/imports?agencyId=agency-1&fileName=Stroke.pdf');
    expect(sent?.[1]?.method).toBe('POST');
    expect(new Headers(sent?.[1]?.headers).get('Content-Type')).toBe('application/pdf');
    expect(sent?.[1]?.body).toBe(file);
    expect(screen.getByRole('progressbar', { name: 'Import of Stroke.pdf' })).toBeTruthy();

    // The page polls while a file is read.
    current = {
      documents: [
        {
          fileName: 'Stroke.pdf',
          title: 'STROKE',
          versionId: 'v1',
          pages: 2,
          byteSize: 120_000,
          importedAt: '2026-11-25T13:00:05.000Z',
          versions: 1,
        },
      ],
      imports: [job({ status: 'done', outcome: 'added', title: 'STROKE', pagesDone: 2, pagesTotal: 2 })],
    };
    expect(await screen.findByText('Added STROKE (2 pages).', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'STROKE' })).toBeTruthy();
  });

  it("shows the server's refusal and a failed import's reason", async () => {
    renderPage(
      () => ({
        documents: [],
        imports: [
          job({ status: 'failed', message: 'broken.pdf: no text layer (a scanned document cannot be searched)' }),
        ],
      }),
      () => json(429, { message: 'This agency is already importing 3 files. Wait for one to finish.' }),
    );
    expect((await screen.findAllByRole('alert'))[0]?.textContent).toMatch(/no text layer/);
    await userEvent.upload(
      screen.getByLabelText('Protocol file (.pdf, .md, .html)'),
      new File(['# Stroke'], 'stroke.md', { type: 'text/markdown' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('This agency is already importing 3 files. Wait for one to finish.')).toBeTruthy();
  });
});
