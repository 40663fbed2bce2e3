import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DispatchedCase } from '@inbound/contract';
import { DispatchedCases } from './DispatchedCases';

vi.mock('../../lib/realtime/realtime', () => ({ useChannel: () => undefined }));

const base: DispatchedCase = {
  _id: 'd1',
  caseNumber: 'QW-5238',
  hospitalId: 'h1',
  agency: { _id: 'a-river', name: 'Riverside EMS' },
  complaint: { id: 'stroke', name: 'Stroke', color: '#b3001b', priority: 1 },
  notes: 'Bay 2',
  urgent: true,
  status: 'awaitingCrew',
  dispatchedAt: '2026-11-22T05:00:00.000Z',
  dispatchedByName: 'Taylor Brooks',
  claim: null,
};

function renderWith(data: DispatchedCase[]) {
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(
    new Response(JSON.stringify({ data }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DispatchedCases hospitalId="h1" />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('DispatchedCases', () => {
  it('says which dispatches await a crew and which truck claimed the others', async () => {
    renderWith([
      base,
      {
        ...base,
        _id: 'd2',
        caseNumber: 'JZ-2858',
        complaint: null,
        urgent: false,
        status: 'claimed',
        claim: { caseId: 'c1', truckName: 'Medic 12', agencyName: 'Riverside EMS', at: '2026-11-22T05:10:00.000Z' },
      },
    ]);
    const region = await screen.findByRole('region', { name: 'Dispatched cases' });
    expect(within(region).getByText('1 awaiting crew')).toBeTruthy();
    const [awaiting, claimed] = within(region).getAllByRole('listitem');
    expect(awaiting?.textContent).toContain('QW-5238');
    expect(awaiting?.textContent).toContain('Dispatched — awaiting crew');
    expect(awaiting?.textContent).toContain('Priority 1');
    expect(claimed?.textContent).toContain('Claimed by Medic 12');
    expect(claimed?.textContent).toContain('Complaint: crew chooses');
  });

  it('shows nothing when the hospital has dispatched nothing', async () => {
    const { container } = renderWith([]);
    await vi.waitFor(() => expect(globalThis.fetch).toHaveBeenCalled());
    expect(container.textContent).toBe('');
  });
});
