/**
 * The destination's geofence (issue 15 item 2): decides, one position report at a time, whether the
 * truck has arrived. A pure function of the last state and the new fix, so the cases service can run
 * it inside the position report's transaction and the test can replay a real GPS track through it.
 *
 * Rules (constants in the contract's arrival.ts):
 * - a fix within `radius` starts a visit (`enteredAt`);
 * - hysteresis: the visit lasts until a fix is farther than radius × ARRIVAL_EXIT_FACTOR, so a fix
 *   jittering across the boundary neither ends it nor starts a new one;
 * - dwell: a fix of the visit at least ARRIVAL_DWELL_SECONDS after it began is the arrival — a truck
 *   driving past crosses the fence in far less, a truck pulling into the bay stays;
 * - a fix less precise than the radius (accuracy in metres) is not used; nor is one recorded before the
 *   visit began (reports can come out of order after an offline stretch).
 */
import {
  ARRIVAL_DWELL_SECONDS,
  ARRIVAL_EXIT_FACTOR,
  ARRIVAL_MAX_ACCURACY_RADII,
  straightLineKm,
  type GeoPoint,
} from '@inbound/contract';

export interface Fence {
  center: GeoPoint;
  radiusM: number;
}

export interface Fix extends GeoPoint {
  accuracy: number | null;
  recordedAt: string;
}

/** `enteredAt`: when the current visit began, null when outside. */
export interface FenceState {
  enteredAt: string | null;
}

export type FenceStep =
  | { kind: 'outside' }
  | { kind: 'entered'; enteredAt: string }
  | { kind: 'inside'; enteredAt: string }
  | { kind: 'left' }
  | { kind: 'arrived'; at: string; enteredAt: string }
  | { kind: 'ignored' };

export const distanceM = (a: GeoPoint, b: GeoPoint): number => straightLineKm(a, b) * 1000;

/** The next state of the fence for one fix. */
export function stepFence(fence: Fence, state: FenceState, fix: Fix): FenceStep {
  if (fix.accuracy !== null && fix.accuracy > fence.radiusM * ARRIVAL_MAX_ACCURACY_RADII) return { kind: 'ignored' };
  const at = Date.parse(fix.recordedAt);
  if (!Number.isFinite(at)) return { kind: 'ignored' };
  const d = distanceM(fix, fence.center);
  const entered = state.enteredAt;
  if (entered === null)
    return d <= fence.radiusM ? { kind: 'entered', enteredAt: fix.recordedAt } : { kind: 'outside' };
  const since = Date.parse(entered);
  if (at < since) return { kind: 'ignored' };
  if (d > fence.radiusM * ARRIVAL_EXIT_FACTOR) return { kind: 'left' };
  if (at - since >= ARRIVAL_DWELL_SECONDS * 1000) return { kind: 'arrived', at: fix.recordedAt, enteredAt: entered };
  return { kind: 'inside', enteredAt: entered };
}

/** The state after a step (what the case row keeps). */
export function stateAfter(step: FenceStep, before: FenceState): FenceState {
  switch (step.kind) {
    case 'entered':
    case 'inside':
    case 'arrived':
      return { enteredAt: step.enteredAt };
    case 'left':
      return { enteredAt: null };
    case 'outside':
    case 'ignored':
      return before;
  }
}
