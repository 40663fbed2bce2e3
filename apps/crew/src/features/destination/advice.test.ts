import { describe, expect, it } from 'vitest';
import type { Hospital, HospitalCapabilities, HospitalStatus } from '@inbound/contract';
import { adviceKindOf, adviseDestinations } from './advice';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const TRUCK = { latitude: 41.4, longitude: -81.7, recordedAt: '2026-11-25T12:00:00Z' };

function hospital(id: string, kmNorth: number, capabilities?: Partial<HospitalCapabilities>): Hospital {
  return {
    _id: id,
    id,
    name: id,
    nonTwiage: false,
    statusChannelId: `hospital-status:${id}`,
    edPhoneNumbers: [],
    activeStatuses: [],
    supportedFeatures: [],
    location: { latitude: TRUCK.latitude + kmNorth / 111.2, longitude: TRUCK.longitude },
    ...(capabilities ? { capabilities: { strokeCenter: null, pci: false, traumaLevel: null, ...capabilities } } : {}),
  };
}
const status = (text: string, priority: 'critical' | 'urgent'): HospitalStatus => ({
  _id: text,
  status: text,
  priority,
  setAt: '2026-11-25T11:00:00Z',
});

describe('destination advice', () => {
  it('knows which complaints call for advice', () => {
    expect(adviceKindOf('Stroke')).toBe('stroke');
    expect(adviceKindOf('STEMI')).toBe('stemi');
    expect(adviceKindOf('Major Trauma')).toBe('trauma');
    expect(adviceKindOf('Fall')).toBeNull();
    expect(adviceKindOf(null)).toBeNull();
  });

  it('ranks a stroke by centre level, then ETA, with the reason in words; a critical status goes last', () => {
    const hospitals = [
      hospital('near-primary', 3, { strokeCenter: 'primary' }),
      hospital('far-comprehensive', 12, { strokeCenter: 'comprehensive' }),
      hospital('diverted-comprehensive', 2, { strokeCenter: 'comprehensive' }),
      hospital('none', 1),
    ];
    const statuses = (h: Hospital) => (h.id === 'diverted-comprehensive' ? [status('On diversion', 'critical')] : []);
    const ranked = adviseDestinations('stroke', hospitals, statuses, TRUCK, NOW);
    expect(ranked.map((a) => a.hospital.id)).toEqual([
      'far-comprehensive',
      'near-primary',
      'none',
      'diverted-comprehensive',
    ]);
    expect(ranked[0]?.reason).toMatch(/^Comprehensive stroke centre, \d+ min, no diversion$/);
    expect(ranked[2]?.reason).toMatch(/^Not a stroke centre, \d+ min, no diversion$/);
    expect(ranked[3]?.reason).toMatch(/^Comprehensive stroke centre, \d+ min, On diversion$/);
  });

  it('ranks a STEMI by PCI and a trauma by level; without a position the ETA is unknown', () => {
    const hospitals = [
      hospital('no-pci', 1),
      hospital('pci', 5, { pci: true, traumaLevel: 2 }),
      hospital('level1', 9, { traumaLevel: 1 }),
    ];
    expect(adviseDestinations('stemi', hospitals, () => [], TRUCK, NOW).map((a) => a.hospital.id)[0]).toBe('pci');
    const trauma = adviseDestinations('trauma', hospitals, () => [status('CT slow', 'urgent')], null, NOW);
    expect(trauma.map((a) => a.hospital.id)).toEqual(['level1', 'pci', 'no-pci']);
    expect(trauma[0]?.reason).toBe('Level 1 trauma centre, ETA unknown, no diversion, CT slow');
  });
});
