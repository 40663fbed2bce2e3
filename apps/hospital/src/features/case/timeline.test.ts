import { describe, expect, it } from 'vitest';
import type { CaseTimelineEntry } from '@inbound/contract';
import { describeEvent } from './timeline';

const call = (detail: Record<string, unknown>): CaseTimelineEntry => ({
  seq: 9,
  type: 'call',
  at: '2026-11-21T12:05:00.000Z',
  clientAt: null,
  actorName: 'Taylor Brooks',
  detail,
});

describe('the timeline line of a voice call (issue 12)', () => {
  it('says who called, who answered and how long it lasted', () => {
    const line = describeEvent(
      call({ callerName: 'Jordan Reyes', answeredByName: 'Taylor Brooks', durationSeconds: 95, outcome: 'completed' }),
    );
    expect(line).toBe('Voice call Jordan Reyes → Taylor Brooks, 1:35');
  });

  it('says when it was recorded or the connection was lost', () => {
    expect(
      describeEvent(
        call({ callerName: 'A', answeredByName: 'B', durationSeconds: 7, outcome: 'completed', recorded: true }),
      ),
    ).toBe('Voice call A → B, 0:07, recorded');
    expect(describeEvent(call({ callerName: 'A', answeredByName: 'B', durationSeconds: 61, outcome: 'lost' }))).toBe(
      'Voice call A → B, 1:01, connection lost',
    );
  });

  it('says how an unanswered call ended', () => {
    expect(describeEvent(call({ callerName: 'A', answeredByName: null, outcome: 'missed' }))).toBe(
      'Voice call from A, not answered',
    );
    expect(describeEvent(call({ callerName: 'A', answeredByName: null, outcome: 'rejected' }))).toBe(
      'Voice call from A, declined',
    );
    expect(describeEvent(call({ callerName: 'A', answeredByName: null, outcome: 'cancelled' }))).toBe(
      'Voice call from A, cancelled by the crew',
    );
  });
});

describe('the timeline line of a call recording (issue 12, decision 0042)', () => {
  const recording = (detail: Record<string, unknown>): CaseTimelineEntry => ({
    ...call(detail),
    type: 'callrecording',
  });
  it('names it, and says when its console closed during the call', () => {
    expect(describeEvent(recording({ callId: 'c1' }))).toBe('Call recording added');
    expect(describeEvent(recording({ callId: 'c1', partial: true }))).toBe(
      'Call recording added (partial: the console closed during the call)',
    );
  });
});
