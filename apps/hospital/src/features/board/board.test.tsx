import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { BoardCase } from '@inbound/contract';
import { dueAlerts, P1_REMINDER_MS } from './alerts';
import { rankOpenCases } from './boardOrder';
import { CaseCard } from './CaseCard';
import { formatElapsed, formatFieldValue } from './format';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const HOSPITAL = { latitude: 41.4993, longitude: -81.6944 };

function card(
  id: string,
  priority: 1 | 2 | 3 | null,
  km: number | null,
  overrides: Partial<BoardCase> = {},
): BoardCase {
  return {
    id,
    caseNumber: `N-${id}`,
    complaint: priority ? { id: 'c', name: `Complaint ${id}`, color: '#cc0000', priority } : null,
    tags: [],
    age: 67,
    agePeriod: 3,
    gender: 'F',
    agency: { id: 'a', name: 'Riverside EMS' },
    truck: { id: 't', name: 'Medic 1', isALS: true },
    startedAt: '2026-11-22T11:30:00.000Z',
    arrivedAt: null,
    closedAt: null,
    // 1 degree of latitude ≈ 111.2 km: a point `km` due south of the hospital.
    lastLocation:
      km === null
        ? null
        : {
            latitude: HOSPITAL.latitude - km / 111.2,
            longitude: HOSPITAL.longitude,
            recordedAt: new Date(NOW).toISOString(),
          },
    acknowledgement: null,
    unreadChat: 0,
    mediaCount: 0,
    ...overrides,
  };
}

afterEach(cleanup);

describe('board order', () => {
  it('puts priority 1 first, then the soonest estimated arrival, unknown positions last', () => {
    const ranked = rankOpenCases(
      [
        card('p3-near', 3, 1),
        card('p1-far', 1, 20),
        card('p2-none', 2, null),
        card('p1-near', 1, 3),
        card('p2-mid', 2, 5),
      ],
      HOSPITAL,
      NOW,
    );
    expect(ranked.map((r) => r.card.id)).toEqual(['p1-near', 'p1-far', 'p3-near', 'p2-mid', 'p2-none']);
    const near = ranked[0]?.arrival;
    expect(near?.distanceKm).toBeCloseTo(3, 1);
    // 3 km × 1.3 road factor at 55 km/h ≈ 4.25 min → 5 (rounded up: never promise early)
    expect(near?.etaMinutes).toBe(5);
  });
});

describe('priority-1 alerts', () => {
  it('alerts a new unacknowledged P1 at once, again every two minutes, never once acknowledged', () => {
    const p1 = card('p1', 1, 5);
    const p2 = card('p2', 2, 5);
    expect(dueAlerts([p1, p2], new Map(), NOW).map((c) => c.id)).toEqual(['p1']);
    const log = new Map([['p1', NOW]]);
    expect(dueAlerts([p1], log, NOW + P1_REMINDER_MS - 1)).toEqual([]);
    expect(dueAlerts([p1], log, NOW + P1_REMINDER_MS).map((c) => c.id)).toEqual(['p1']);
    const acknowledged = { ...p1, acknowledgement: { byName: 'Taylor Brooks', at: new Date(NOW).toISOString() } };
    expect(dueAlerts([acknowledged], new Map(), NOW + 10 * P1_REMINDER_MS)).toEqual([]);
  });
});

describe('formatting', () => {
  it('says elapsed times and date-time values as staff read them', () => {
    expect(formatElapsed(42_000)).toBe('42 s');
    expect(formatElapsed(7 * 60_000)).toBe('7 min');
    expect(formatElapsed(65 * 60_000)).toBe('1 h 05 min');
    const lkw = new Date(NOW - 80 * 60_000).toISOString();
    expect(formatFieldValue({ key: 'lkw', name: 'Last Known Well', type: 'datetime', value: lkw }, NOW)).toMatch(
      /^\d\d:\d\d \(1 h 20 min ago\)$/,
    );
  });
});

describe('CaseCard', () => {
  it('shows priority in words and shape, the key values, unit, estimates and counts', () => {
    const c = card('s', 1, 4, {
      tags: [
        { id: 'face', name: 'Facial Droop', fields: [], updatedAt: null },
        {
          id: 'lkw',
          name: 'Last Known Well',
          fields: [
            { key: 'lkw', name: 'Last Known Well', type: 'datetime', value: new Date(NOW - 600_000).toISOString() },
          ],
          updatedAt: new Date(NOW).toISOString(),
        },
      ],
      unreadChat: 2,
      mediaCount: 3,
    });
    render(
      <MemoryRouter>
        <ul>
          <CaseCard hospitalId="h1" ranked={rankOpenCases([c], HOSPITAL, NOW)[0]!} now={NOW} alerting={false} />
        </ul>
      </MemoryRouter>,
    );
    expect(screen.getByText(/Priority 1/).textContent).toContain('▲');
    expect(screen.getByText('67 y · Female')).toBeTruthy();
    expect(screen.getByText(/10 min ago/)).toBeTruthy();
    expect(screen.getByText('est. · 4.0 km')).toBeTruthy();
    expect(screen.getByText('ALS')).toBeTruthy();
    expect(screen.getByText('2 unread messages')).toBeTruthy();
    expect(screen.getByText('3 media')).toBeTruthy();
    expect(screen.getByText('Not acknowledged')).toBeTruthy();
    // Tags with values come before plain ones.
    const tags = screen.getAllByRole('listitem').filter((li) => li.classList.contains('tag'));
    expect(tags[0]?.textContent).toContain('Last Known Well');
  });
});
