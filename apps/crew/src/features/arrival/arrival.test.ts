import { afterEach, describe, expect, it } from 'vitest';
import type { CaseEvent, HospitalStatus } from '@inbound/contract';
import { queryClient } from '../../lib/queryClient';
import { applyArrivalEvent, arrivalKey, type ArrivalState } from './arrivalState';
import { destinationWarnings } from './destinationWarning';

const CASE = 'case-1';
const at = '2026-11-25T13:00:00.000Z';
const held = () => queryClient.getQueryData<ArrivalState>(arrivalKey(CASE));
const apply = (event: CaseEvent) => applyArrivalEvent(CASE, { ...event, createdAt: at });

afterEach(() => queryClient.clear());

describe('the crew’s arrival state from case events', () => {
  it('arrival, then the hand-over with who and when', () => {
    expect(
      apply({ type: 'arrivedAtDestination', payload: { hospitalId: 'h1', at, source: 'geofence', byName: null } }),
    ).toBe(true);
    expect(held()).toMatchObject({ arrival: { source: 'geofence', at }, handoff: null });
    apply({ type: 'handoffAccepted', payload: { hospitalId: 'h1', byName: 'Taylor Brooks', at } });
    expect(held()?.handoff).toEqual({ byName: 'Taylor Brooks', at });
  });

  it('a diversion holds the reason and the hospital; a new destination clears it', () => {
    apply({
      type: 'diverted',
      payload: { hospitalId: 'h1', hospitalName: 'Riverside', reason: 'CT down', byName: 'TB' },
    });
    expect(held()?.diversion).toMatchObject({ hospitalId: 'h1', hospitalName: 'Riverside', reason: 'CT down', at });
    expect(apply({ type: 'hospital', payload: { destinationHospital: 'h2', previous: 'h1', nonTwiage: false } })).toBe(
      false,
    );
    expect(held()).toEqual({ arrival: null, handoff: null, diversion: null });
  });
});

describe('the destination warning', () => {
  const status = (priority: 'critical' | 'urgent', text: string) =>
    ({ _id: text, status: text, priority }) as unknown as HospitalStatus;
  const hospital = { id: 'h1', name: 'Riverside' };

  it('warns for a critical status, not for an urgent one', () => {
    expect(destinationWarnings(hospital, [status('urgent', 'Busy')], null)).toEqual([]);
    expect(destinationWarnings(hospital, [status('critical', 'On diversion')], null)).toEqual([
      'Riverside reports a critical status: On diversion.',
    ]);
  });

  it('warns about the hospital that diverted the case', () => {
    const diversion = { hospitalId: 'h1', hospitalName: 'Riverside', reason: 'CT down', byName: 'TB', at };
    expect(destinationWarnings(hospital, [], diversion)).toEqual(['Riverside diverted this ambulance: CT down.']);
    expect(destinationWarnings({ id: 'h2', name: 'Other' }, [], diversion)).toEqual([]);
  });
});
