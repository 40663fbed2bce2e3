/**
 * A schedule: what happens to the crew, the link and the server, step by step. Steps only name
 * choices (`pick` numbers); the runner turns them into valid changes for the case as it is then, so
 * fast-check can shrink a failing schedule to a short one that still fails.
 */
import fc from 'fast-check';
import type { ChangeKind } from './case-changes';
import type { KillPoint } from './network';

export type Step =
  | { do: 'startCase'; truck: number }
  | { do: 'change'; kind: ChangeKind; caseIndex: number; pick: number; pick2: number; stale: boolean }
  /** Quick taps: several changes whose enqueues run at the same time (each tap's handler awaits its own). */
  | { do: 'quickTaps'; caseIndex: number; taps: { kind: ChangeKind; pick: number; pick2: number }[] }
  | { do: 'goOffline' }
  | { do: 'goOnline' }
  | { do: 'flush' }
  /** Time passes: retries whose back-off is over go out on the outbox's own timer. */
  | { do: 'wait'; ms: number }
  /** Kill the server at the next request that reaches it. */
  | { do: 'killServer'; at: KillPoint }
  | { do: 'restartServer' }
  /**
   * The page dies and is opened again: when idle, or with a request in flight (the server has it, the
   * page never hears the answer). With `lostLocalIds` the page had not saved the server's case ids.
   */
  | { do: 'restartClient'; inFlight: boolean; lostLocalIds: boolean };

const pick = fc.nat({ max: 9_999 });

const changeKind: fc.Arbitrary<ChangeKind> = fc.oneof(
  { arbitrary: fc.constantFrom<ChangeKind>('complaint', 'hospital', 'patientInfo'), weight: 3 },
  { arbitrary: fc.constantFrom<ChangeKind>('tag', 'tagValues', 'age', 'gender', 'location'), weight: 8 },
  { arbitrary: fc.constant<ChangeKind>('close'), weight: 1 },
);

export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ do: fc.constant('startCase' as const), truck: pick }), weight: 2 },
  {
    arbitrary: fc.record({
      do: fc.constant('change' as const),
      kind: changeKind,
      caseIndex: fc.nat({ max: 3 }),
      pick,
      pick2: pick,
      // The UI had not caught up with the server's case id yet: the change goes under the placeholder.
      stale: fc.boolean(),
    }),
    weight: 14,
  },
  {
    arbitrary: fc.record({
      do: fc.constant('quickTaps' as const),
      caseIndex: fc.nat({ max: 3 }),
      taps: fc.array(fc.record({ kind: changeKind, pick, pick2: pick }), { minLength: 2, maxLength: 4 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ do: 'goOffline' as const }), weight: 2 },
  { arbitrary: fc.constant({ do: 'goOnline' as const }), weight: 2 },
  { arbitrary: fc.constant({ do: 'flush' as const }), weight: 2 },
  { arbitrary: fc.record({ do: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 40_000 }) }), weight: 1 },
  {
    arbitrary: fc.record({
      do: fc.constant('killServer' as const),
      at: fc.constantFrom<KillPoint>('before-delivery', 'after-commit'),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ do: 'restartServer' as const }), weight: 2 },
  {
    arbitrary: fc.record({
      do: fc.constant('restartClient' as const),
      inFlight: fc.boolean(),
      lostLocalIds: fc.boolean(),
    }),
    weight: 2,
  },
);

export const scheduleArbitrary = fc.array(stepArbitrary, { minLength: 10, maxLength: 30 });
