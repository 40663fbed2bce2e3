import { act, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { caseMutations } from './caseMutations';
import { createOutbox, type Outbox } from './outbox';
import { createFakeServer } from './outbox.testkit';
import { useOutboxStatus } from './useOutboxStatus';

let outbox: Outbox | null = null;
afterEach(async () => {
  await outbox?.stop();
});

function CaseSendStatus({ source, caseId }: { source: Outbox; caseId: string }) {
  const status = useOutboxStatus(source, caseId);
  if (status.held) return <p>Sign in again to send</p>;
  return <p>{status.pending === 0 ? 'All changes sent' : `${status.pending} changes waiting to send`}</p>;
}

it('shows how many changes of the case wait, and follows them out', async () => {
  const server = createFakeServer();
  server.offline = true;
  const events = new EventTarget();
  outbox = createOutbox({
    transport: server.transport,
    dbName: 'outbox-hook-test',
    events,
    locks: null,
    broadcastChannel: null,
    isBrowserOnline: () => !server.offline,
  });
  await outbox.start();
  render(<CaseSendStatus source={outbox} caseId="case-1" />);
  expect(screen.getByText('All changes sent')).toBeInTheDocument();

  await act(async () => {
    for (const gender of ['F', 'M', null] as const)
      await outbox!.enqueue(caseMutations.patchCase('case-1', { gender }));
    await outbox!.enqueue(caseMutations.patchCase('case-2', { gender: 'F' }));
    await outbox!.whenIdle();
  });
  expect(await screen.findByText('3 changes waiting to send')).toBeInTheDocument();

  server.offline = false;
  await act(async () => {
    events.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await outbox!.whenIdle();
  });
  expect(await screen.findByText('All changes sent')).toBeInTheDocument();
  expect(server.applied).toHaveLength(4);
});
