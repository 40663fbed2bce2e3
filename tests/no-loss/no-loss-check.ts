/**
 * The invariant, checked after every step of a schedule: every change the crew made is on the server
 * exactly once (its idempotency record and its one case event, with the right content, on the right
 * case) or still in the outbox — and nothing is on the server that the crew did not make once.
 *
 * Because the outbox sends a case's changes strictly in order, more holds: per case, what is on the
 * server is a prefix of what the crew made (events in that order), what is in the outbox a suffix, and
 * they overlap by at most one change (the head, delivered but not yet confirmed: a kill after commit).
 */
import { isDeepStrictEqual } from 'node:util';
import type { MutationInfo, RejectedMutation } from '../../apps/crew/src/lib/outbox/types';
import type { CrewCase, MadeChange } from './case-changes';
import type { Ledger } from './server/server-types';

export interface OutboxContents {
  pending: MutationInfo[];
  rejected: RejectedMutation[];
}

export function noLossProblems(cases: readonly CrewCase[], ledger: Ledger, outbox: OutboxContents): string[] {
  const problems: string[] = [];
  for (const r of outbox.rejected) {
    problems.push(`the server refused "${r.kind} ${r.path}" (${r.status}: ${r.message}) — every change here is valid`);
  }

  const made = new Map<string, MadeChange>();
  for (const crewCase of cases) for (const change of crewCase.changes) made.set(change.key, change);
  const onServer = new Map<string, Ledger['keys'][number]>();
  for (const row of ledger.keys) {
    if (onServer.has(row.key)) problems.push(`idempotency key ${row.key} is on the server twice`);
    onServer.set(row.key, row);
    if (!made.has(row.key)) problems.push(`the server wrote a change the crew never made (key ${row.key})`);
  }
  const pending = new Set(outbox.pending.map((p) => p.key));
  for (const p of outbox.pending) {
    if (!made.has(p.key)) problems.push(`the outbox holds a change the crew never made (${p.kind} ${p.path})`);
  }
  const eventById = new Map(ledger.events.map((e) => [e.id, e]));
  const claimed = new Set<string>();

  let casesCreated = 0;
  for (const crewCase of cases) {
    const createRow = onServer.get(crewCase.changes[0]!.key);
    const serverCaseId = createRow ? (createRow.response as { id: string }).id : null;
    if (serverCaseId) casesCreated += 1;
    let lastSeq = 0;
    let sawMissing = false;
    let sawPending = false;
    let overlap = 0;
    crewCase.changes.forEach((change, i) => {
      const what = `${crewCase.placeholderId} change ${i + 1} (${change.label})`;
      const row = onServer.get(change.key);
      const isPending = pending.has(change.key);
      if (!row && !isPending) problems.push(`LOST: ${what} is neither on the server nor in the outbox`);
      if (row && sawMissing) problems.push(`ORDER: ${what} is on the server, an earlier change of its case is not`);
      if (!isPending && sawPending) problems.push(`ORDER: ${what} left the outbox before an earlier change`);
      if (row && isPending) overlap += 1;
      sawMissing ||= !row;
      sawPending ||= isPending;
      if (!row) return;

      if (row.caseId !== serverCaseId) problems.push(`${what} was written to case ${row.caseId}, not ${serverCaseId}`);
      const event =
        i === 0
          ? ledger.events.find((e) => e.caseId === serverCaseId && e.seq === 1)
          : eventById.get((row.response as { event?: { id: string } | null }).event?.id ?? '');
      if (!event) {
        problems.push(`${what}: the server recorded no event for it`);
        return;
      }
      claimed.add(event.id);
      if (event.type !== change.expect.type || !matches(event.payload, change.expect.payload)) {
        problems.push(
          `${what}: event ${event.type} ${JSON.stringify(event.payload)}, expected ${change.expect.type} ${JSON.stringify(change.expect.payload)}`,
        );
      }
      if (event.seq <= lastSeq) problems.push(`ORDER: ${what} is event #${event.seq}, after #${lastSeq}`);
      lastSeq = event.seq;
    });
    if (overlap > 1) problems.push(`${crewCase.placeholderId}: ${overlap} changes both delivered and still queued`);
  }

  for (const event of ledger.events) {
    // Recorded by the server from a crew change, not asked for by one: the crew's close is also the
    // arrival at the destination (issue 15), recorded once per destination.
    if (event.type === 'arrivedAtDestination') continue;
    if (!claimed.has(event.id)) {
      problems.push(`TWICE or unasked: event #${event.seq} ${event.type} of case ${event.caseId} is no change's event`);
    }
  }
  if (ledger.cases.length !== casesCreated) {
    problems.push(`the server holds ${ledger.cases.length} cases of the crew, the crew created ${casesCreated}`);
  }
  return problems;
}

/** Every expected field equals the recorded one (the event may carry more, e.g. `previous`). */
function matches(actual: Record<string, unknown>, expected: Record<string, unknown>): boolean {
  return Object.entries(expected).every(([key, value]) => isDeepStrictEqual(actual[key], value));
}
