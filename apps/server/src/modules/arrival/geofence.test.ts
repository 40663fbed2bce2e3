/**
 * The geofence against real GPS tracks (gpsd's regression captures in ../shared/data/gps, read-only,
 * never copied): a receiver jittering across the fence's boundary arrives once, a vessel moving past a
 * fence does not arrive, a receiver standing in the fence arrives after the dwell.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARRIVAL_DWELL_SECONDS, ARRIVAL_EXIT_FACTOR } from '@inbound/contract';
import { decodeNmeaSentence, type GpsFix } from '@inbound/gps';
import { GPS_DATA_MISSING, gpsDataDir } from '@inbound/gps/testData';
import { describe, expect, it } from 'vitest';
import { distanceM, stateAfter, stepFence, type Fence, type FenceState, type FenceStep, type Fix } from './geofence.js';

const dataDir = gpsDataDir();
if (!dataDir) console.warn(GPS_DATA_MISSING);

function track(name: string): Fix[] {
  if (!dataDir) throw new Error(GPS_DATA_MISSING);
  const text = readFileSync(join(dataDir, 'nmea-gpsd', name), 'latin1');
  return text
    .split(/\r?\n/)
    .map((line) => decodeNmeaSentence(line.trim()))
    .flatMap((o) => (o.kind === 'fix' ? [o.fix] : []))
    .map((f: GpsFix) => ({ latitude: f.lat, longitude: f.lon, accuracy: null, recordedAt: f.time }));
}

/** Replays fixes as the cases service does: one step per position report, until the arrival. */
function replay(fence: Fence, fixes: Fix[]): { steps: FenceStep[]; arrivals: FenceStep[] } {
  let state: FenceState = { enteredAt: null };
  const steps: FenceStep[] = [];
  for (const fix of fixes) {
    const step = stepFence(fence, state, fix);
    steps.push(step);
    state = stateAfter(step, state);
    if (step.kind === 'arrived') break; // the case is arrived: the service stops asking
  }
  return { steps, arrivals: steps.filter((s) => s.kind === 'arrived') };
}

/** A point `metres` east of `p` (good enough at these distances). */
const east = (p: Fix, metres: number) => ({
  latitude: p.latitude,
  longitude: p.longitude + metres / (111_320 * Math.cos((p.latitude * Math.PI) / 180)),
});

describe.skipIf(!dataDir)('geofence on real GPS tracks', () => {
  it('a receiver jittering across the boundary (haicom-305N, ~45 m of wander) makes one visit and arrives once', () => {
    const fixes = track('haicom-305N.log');
    expect(fixes.length).toBeGreaterThan(60);
    // Centre the fence so that the median fix sits on the boundary: the raw inside/outside flips often.
    const center = east(fixes[0]!, 35);
    const distances = fixes.map((f) => distanceM(f, center)).sort((a, b) => a - b);
    const radiusM = distances[Math.floor(distances.length / 3)]!;
    const fence = { center, radiusM };
    const raw = fixes.map((f) => distanceM(f, center) <= radiusM);
    const crossings = raw.filter((inside, i) => i > 0 && inside !== raw[i - 1]).length;
    expect(crossings).toBeGreaterThanOrEqual(4); // the premise: the track really goes in and out

    const { steps, arrivals } = replay(fence, fixes);
    expect(steps.filter((s) => s.kind === 'entered')).toHaveLength(1);
    expect(steps.filter((s) => s.kind === 'left')).toHaveLength(0);
    expect(arrivals).toHaveLength(1);
    const arrival = arrivals[0] as Extract<FenceStep, { kind: 'arrived' }>;
    expect(Date.parse(arrival.at) - Date.parse(arrival.enteredAt)).toBeGreaterThanOrEqual(ARRIVAL_DWELL_SECONDS * 1000);

    // Without hysteresis the same track would have started several visits: the band is what holds it.
    let visits = 0;
    let inside = false;
    for (const f of fixes) {
      const now = distanceM(f, center) <= radiusM;
      if (now && !inside) visits += 1;
      inside = now;
    }
    expect(visits).toBeGreaterThan(1);
  });

  it('a vessel moving past a fence (bundg_zeus_9, ~3 m/s) does not arrive', () => {
    const fixes = track('bundg_zeus_9.log');
    const middle = fixes[Math.floor(fixes.length / 2)]!;
    const fence = { center: { latitude: middle.latitude, longitude: middle.longitude }, radiusM: 50 };
    const { steps, arrivals } = replay(fence, fixes);
    expect(steps.some((s) => s.kind === 'entered')).toBe(true); // it did cross the fence
    expect(steps.some((s) => s.kind === 'left')).toBe(true);
    expect(arrivals).toHaveLength(0);
  });

  it('the same vessel arrives where it ends its track inside a fence wide enough for the dwell', () => {
    const fixes = track('bundg_zeus_9.log');
    const last = fixes[fixes.length - 1]!;
    const fence = { center: { latitude: last.latitude, longitude: last.longitude }, radiusM: 300 };
    const { arrivals } = replay(fence, fixes);
    expect(arrivals).toHaveLength(1);
  });

  it('a receiver standing in the bay (telit-he910, 3 minutes still) arrives after exactly the dwell', () => {
    const fixes = track('telit-he910.log');
    const fence = { center: east(fixes[0]!, 20), radiusM: 40 };
    const { arrivals } = replay(fence, fixes);
    expect(arrivals).toHaveLength(1);
    const arrival = arrivals[0] as Extract<FenceStep, { kind: 'arrived' }>;
    const waited = (Date.parse(arrival.at) - Date.parse(fixes[0]!.recordedAt)) / 1000;
    expect(waited).toBeGreaterThanOrEqual(ARRIVAL_DWELL_SECONDS);
    expect(waited).toBeLessThan(ARRIVAL_DWELL_SECONDS + 5); // the receiver reports about once a second
  });
});

describe('geofence rules', () => {
  const center = { latitude: 32.7157, longitude: -117.1611 };
  const fence = { center, radiusM: 100 };
  const at = (s: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, s)).toISOString();
  const fixAt = (metres: number, s: number, accuracy: number | null = 5): Fix => ({
    ...east({ ...center, accuracy: null, recordedAt: '' }, metres),
    accuracy,
    recordedAt: at(s),
  });

  it('ignores a fix less precise than the radius', () => {
    expect(stepFence(fence, { enteredAt: null }, fixAt(0, 0, 500)).kind).toBe('ignored');
  });

  it('keeps the visit inside the hysteresis band and ends it beyond', () => {
    const state = { enteredAt: at(0) };
    expect(stepFence(fence, state, fixAt(100 * ARRIVAL_EXIT_FACTOR - 5, 10)).kind).toBe('inside');
    expect(stepFence(fence, state, fixAt(100 * ARRIVAL_EXIT_FACTOR + 5, 10)).kind).toBe('left');
  });

  it('does not count a fix recorded before the visit began (late offline report)', () => {
    expect(stepFence(fence, { enteredAt: at(30) }, fixAt(0, 0)).kind).toBe('ignored');
  });

  it('arrives at the first fix of the visit past the dwell', () => {
    expect(stepFence(fence, { enteredAt: at(0) }, fixAt(10, ARRIVAL_DWELL_SECONDS - 1)).kind).toBe('inside');
    expect(stepFence(fence, { enteredAt: at(0) }, fixAt(10, ARRIVAL_DWELL_SECONDS)).kind).toBe('arrived');
  });
});
