import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { caseOutbox } from '../../lib/caseOutbox';
import { caseMutations } from '../../lib/outbox';
import { queryClient } from '../../lib/queryClient';
import { caseTeam } from '../../test/fixtures';
import { clockTime } from '../complaints/tagValues';
import { DeliveryState } from './DeliveryState';
import { acknowledgementKey, type Acknowledgement } from './EdAcknowledgement';

// Issue 16, item 6: the case screen's per-case delivery line — Sent ✓, then Seen ✓✓, and calm offline.

const riverside = caseTeam.hospitals[0]!;
const seenAt = '2026-11-25T09:41:00.000Z';

function show(online: boolean) {
  return render(
    <QueryClientProvider client={queryClient}>
      <DeliveryState caseId="case-1" destination={riverside} online={online} />
    </QueryClientProvider>,
  );
}

function edSaw() {
  const seen: Acknowledgement = { hospitalId: 'rrmc', hospital: riverside.name, at: seenAt };
  act(() => {
    queryClient.setQueryData<Acknowledgement | null>(acknowledgementKey('case-1'), seen);
  });
}

beforeEach(async () => {
  queryClient.clear();
  await caseOutbox.clear();
});

afterEach(async () => {
  await caseOutbox.clear();
});

describe('the delivery line', () => {
  it('says "Sent to {hospital} ✓" once nothing is waiting, then "Seen by {hospital} ED hh:mm ✓✓"', async () => {
    show(true);
    expect(screen.getByTestId('delivery-state')).toHaveTextContent(`Sent to ${riverside.name} ✓`);
    edSaw();
    expect(await screen.findByTestId('ed-acknowledgement')).toHaveTextContent(
      `Seen by ${riverside.name} ED ${clockTime(new Date(seenAt))} ✓✓`,
    );
    expect(screen.queryByTestId('delivery-state')).toBeNull();
  });

  it('is calm offline: nothing waiting → "No signal — you can keep working"; a "Seen" stays true', async () => {
    show(false);
    expect(screen.getByText('No signal — you can keep working')).toBeInTheDocument();
    expect(screen.queryByTestId('delivery-state')).toBeNull();
    edSaw();
    expect(await screen.findByTestId('ed-acknowledgement')).toHaveTextContent(`Seen by ${riverside.name} ED`);
  });

  it('says the device keeps the changes while offline, and claims nothing while they wait online', async () => {
    await caseOutbox.enqueue(caseMutations.patchCase('case-1', { age: 72, agePeriod: 3 }));
    const view = show(false);
    expect(await screen.findByText('Kept on this device — sends when the signal returns')).toBeInTheDocument();
    edSaw();
    await waitFor(() =>
      expect(queryClient.getQueryData(acknowledgementKey('case-1'))).toMatchObject({ hospital: riverside.name }),
    );
    // The newest change has not reached the ED yet: its "Seen" is not claimed for it.
    expect(screen.getByText('Kept on this device — sends when the signal returns')).toBeInTheDocument();
    expect(screen.queryByTestId('ed-acknowledgement')).toBeNull();
    view.rerender(
      <QueryClientProvider client={queryClient}>
        <DeliveryState caseId="case-1" destination={riverside} online />
      </QueryClientProvider>,
    );
    expect(screen.queryByTestId('ed-acknowledgement')).toBeNull();
    expect(screen.queryByTestId('delivery-state')).toBeNull();
  });
});
