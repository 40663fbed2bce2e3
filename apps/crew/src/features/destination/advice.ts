/**
 * Destination advice (issue 15 item 5): for a stroke, STEMI or trauma case, the team's hospitals
 * ranked by what they can do for it (stroke centre level, PCI, trauma level), their live status (a
 * critical status — diversion, CT down — sends a hospital below every one without) and the ETA from
 * the truck's last position, each with its reason in words ("Comprehensive stroke centre, 14 min,
 * no diversion"). Advice only: every hospital stays one tap away.
 */
import {
  estimateArrival,
  NO_CAPABILITIES,
  STROKE_CENTER_NAMES,
  type Hospital,
  type HospitalCapabilities,
  type HospitalStatus,
} from '@inbound/contract';

export type AdviceKind = 'stroke' | 'stemi' | 'trauma';

const KIND_WORDS: [AdviceKind, RegExp][] = [
  ['stroke', /\bstroke\b|\bcva\b/i],
  ['stemi', /\bstemi\b|\bmyocardial infarction\b/i],
  ['trauma', /\btrauma\b/i],
];

export const ADVICE_KIND_NAMES: Record<AdviceKind, string> = { stroke: 'stroke', stemi: 'STEMI', trauma: 'trauma' };

/** The kind of advice a complaint calls for, by its name; null: none (the picker stays as it is). */
export function adviceKindOf(complaintName: string | null | undefined): AdviceKind | null {
  if (!complaintName) return null;
  return KIND_WORDS.find(([, words]) => words.test(complaintName))?.[0] ?? null;
}

const STROKE_TIER = { comprehensive: 4, thrombectomy: 3, primary: 2, acuteReady: 1 } as const;

/** How well the hospital can treat the kind: higher is better, 0 = not at all. */
export function capabilityTier(kind: AdviceKind, c: HospitalCapabilities): number {
  if (kind === 'stroke') return c.strokeCenter ? STROKE_TIER[c.strokeCenter] : 0;
  if (kind === 'stemi') return c.pci ? 1 : 0;
  return c.traumaLevel ? 6 - c.traumaLevel : 0;
}

function capabilityWords(kind: AdviceKind, c: HospitalCapabilities): string {
  if (kind === 'stroke') return c.strokeCenter ? STROKE_CENTER_NAMES[c.strokeCenter] : 'Not a stroke centre';
  if (kind === 'stemi') return c.pci ? 'PCI centre (cath lab)' : 'No PCI';
  return c.traumaLevel ? `Level ${c.traumaLevel} trauma centre` : 'Not a trauma centre';
}

export interface Advice {
  hospital: Hospital;
  tier: number;
  etaMinutes: number | null;
  /** The critical statuses (diversion and the like), if any. */
  critical: string[];
  reason: string;
}

export interface TruckPosition {
  latitude: number;
  longitude: number;
  recordedAt: string;
}

/** The hospitals (on the platform or not) ranked for the kind, best first, each with its reason. */
export function adviseDestinations(
  kind: AdviceKind,
  hospitals: readonly Hospital[],
  statusesOf: (hospital: Hospital) => readonly HospitalStatus[],
  from: TruckPosition | null,
  now: number,
): Advice[] {
  const advised = hospitals.map((hospital, index) => {
    const capabilities = hospital.capabilities ?? NO_CAPABILITIES;
    const statuses = statusesOf(hospital);
    const critical = statuses.filter((s) => s.priority === 'critical').map((s) => s.status);
    const urgent = statuses.filter((s) => s.priority === 'urgent').map((s) => s.status);
    const etaMinutes = estimateArrival(from, hospital.location, now)?.etaMinutes ?? null;
    const words = [
      capabilityWords(kind, capabilities),
      etaMinutes === null ? 'ETA unknown' : `${etaMinutes} min`,
      critical.length > 0 ? critical.join(', ') : 'no diversion',
      ...urgent,
    ];
    return {
      hospital,
      tier: capabilityTier(kind, capabilities),
      etaMinutes,
      critical,
      reason: words.join(', '),
      index,
    };
  });
  advised.sort(
    (a, b) =>
      Number(a.critical.length > 0) - Number(b.critical.length > 0) ||
      b.tier - a.tier ||
      (a.etaMinutes ?? Number.MAX_SAFE_INTEGER) - (b.etaMinutes ?? Number.MAX_SAFE_INTEGER) ||
      a.index - b.index,
  );
  return advised.map(({ index: _index, ...advice }) => advice);
}
