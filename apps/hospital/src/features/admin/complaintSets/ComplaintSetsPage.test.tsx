import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Complaint } from '@inbound/contract';
import { checkImportFile, ComplaintSetsPage, exportFileName } from './ComplaintSetsPage';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const tag = (id: string) => ({ id, name: id, groupIdentifier: null, category: null, data: [] });
const complaint = (id: string, tags: string[]): Complaint => ({
  id,
  name: `Complaint ${id}`,
  priority: 1,
  color: '#D32F2F',
  nemsisPreArrivalAlert: null,
  sections: [{ id: `${id}-s`, name: 'Findings', tags: tags.map(tag) }],
});
const goodFile = { name: 'Metro 2027', complaints: [complaint('c1', ['t-lkw']), complaint('c2', ['t-bp'])] };

const sets = {
  sets: [
    {
      id: 'cset-1',
      name: 'Metro 2027',
      version: 2,
      complaintCount: 2,
      createdAt: '2026-11-20T10:00:00.000Z',
      agencies: [{ id: 'a1', name: 'Riverside EMS' }],
    },
  ],
};

function renderPage(onRequest: (url: string, init?: RequestInit) => Response) {
  const fetch = vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation((input, init) => Promise.resolve(onRequest(String(input), init)));
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}
    >
      <ComplaintSetsPage />
    </QueryClientProvider>,
  );
  return fetch;
}

const fileOf = (content: unknown, name = 'set.json') =>
  new File([typeof content === 'string' ? content : JSON.stringify(content)], name, { type: 'application/json' });

afterEach(cleanup);

describe('checkImportFile', () => {
  it('names the bad entry as the server does', () => {
    const dup = { ...goodFile, complaints: [complaint('c1', ['t-lkw']), complaint('c2', ['t-bp', 't-lkw'])] };
    expect(checkImportFile(JSON.stringify(dup))).toEqual({
      problems: ['complaints[1].sections[0].tags[1].id: duplicate id "t-lkw"'],
    });
    expect(checkImportFile('{ nope')).toMatchObject({
      problems: [expect.stringMatching(/^The file is not valid JSON/)],
    });
    expect(checkImportFile(JSON.stringify(goodFile))).toEqual({ file: goodFile });
  });

  it('names export files after the set and version', () => {
    expect(exportFileName('Standard ALS/BLS 2026', 3)).toBe('standard-als-bls-2026-v3.json');
  });
});

describe('ComplaintSetsPage', () => {
  it('refuses a bad file naming the entry, then imports a good one after confirmation', async () => {
    const imports: unknown[] = [];
    const fetch = renderPage((url, init) => {
      if (url.endsWith('/v4/admin/complaint-sets')) return json(200, sets);
      imports.push(JSON.parse(String(init?.body)));
      return json(201, { id: 'cset-3', name: 'Metro 2027', version: 3, complaintCount: 2, replaced: true });
    });
    const user = userEvent.setup();
    await screen.findByText('Riverside EMS');
    const input = screen.getByLabelText('Complaint set file (.json)');

    const bad = structuredClone(goodFile);
    bad.complaints[1]!.color = 'blue';
    await user.upload(input, fileOf(bad));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('complaints[1].color: a colour must be #RRGGBB');
    expect(input.getAttribute('aria-invalid')).toBe('true');

    await user.upload(input, fileOf(goodFile, 'metro.json'));
    const confirm = await screen.findByRole('group', { name: 'Confirm the import' });
    expect(confirm.textContent).toContain('This replaces version 2 for 1 agency.');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(within(confirm).getByRole('button', { name: 'Replace Metro 2027' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Imported Metro 2027 version 3 (2 complaints).'),
    );
    expect(imports).toEqual([goodFile]);
    expect(fetch.mock.calls.some(([u, i]) => String(u).endsWith('/import') && i?.method === 'POST')).toBe(true);
  });

  it("shows the server's refusal as it is", async () => {
    renderPage((url) =>
      url.endsWith('/v4/admin/complaint-sets')
        ? json(200, sets)
        : json(409, {
            message: 'Another import of "Metro 2027" finished first; import the file again to make it the newest.',
          }),
    );
    const user = userEvent.setup();
    await screen.findByText('Riverside EMS');
    await user.upload(screen.getByLabelText('Complaint set file (.json)'), fileOf(goodFile));
    await user.click(await screen.findByRole('button', { name: 'Replace Metro 2027' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Another import of "Metro 2027" finished first');
  });

  it('exports a set as a JSON download', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:export';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    renderPage((url) =>
      url.endsWith('/v4/admin/complaint-sets') ? json(200, sets) : json(200, { ...goodFile, version: 2 }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Export Metro 2027' }));
    await waitFor(() => expect(clicks).toEqual(['metro-2027-v2.json']));
    expect(JSON.parse(await created[0]!.text())).toEqual({ ...goodFile, version: 2 });
  });
});
