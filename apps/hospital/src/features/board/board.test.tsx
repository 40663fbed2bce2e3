import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { BoardCase } from '@inbound/contract';
import { AlertBanner } from './AlertBanner';
import { dueAlerts, P1_REMINDER_MS } from './alerts';
import { rankOpenCases } from './boardOrder';
import { CaseCard } from './CaseCard';
import { formatAge, formatElapsed, formatFieldValue } from './format';

// formatAge runs once per CaseCard render: spying on it says which cards rendered.
vi.mock('./format', async (importOriginal) => {
  const original = await importOriginal<typeof import('./format')>();
  return { ...original, formatAge: vi.fn(original.formatAge) };
});

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

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

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
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    const [ranked] = rankOpenCases([c], HOSPITAL, NOW);
    render(
      <MemoryRouter>
        <ul>
          <CaseCard
            hospitalId="h1"
            card={ranked!.card}
            etaMinutes={ranked!.arrival?.etaMinutes ?? null}
            distanceKm={ranked!.arrival?.distanceKm ?? null}
            alerting={false}
          />
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

describe('CaseCard re-renders', () => {
  /** The board's list as InboundBoard renders it. */
  function Board({ cases }: { cases: BoardCase[] }) {
    return (
      <MemoryRouter>
        <ul>
          {rankOpenCases(cases, HOSPITAL, NOW).map((r) => (
            <CaseCard
              key={r.card.id}
              hospitalId="h1"
              card={r.card}
              etaMinutes={r.arrival?.etaMinutes ?? null}
              distanceKm={r.arrival?.distanceKm ?? null}
              alerting={false}
            />
          ))}
        </ul>
      </MemoryRouter>
    );
  }

  it('re-renders only the card whose case changed when the board is read again', () => {
    const cases = Array.from({ length: 20 }, (_, i) => card(`c${i}`, ((i % 3) + 1) as 1 | 2 | 3, 2 + i));
    const renderedIds = () => vi.mocked(formatAge).mock.calls.map(([c]) => (c as BoardCase).id);
    vi.mocked(formatAge).mockClear();
    const { rerender } = render(<Board cases={cases} />);
    expect(new Set(renderedIds()).size).toBe(20);
    vi.mocked(formatAge).mockClear();
    // One crew's location report: its card is a new object, the others keep theirs (structural sharing).
    const moved = cases.map((c) =>
      c.id === 'c7' ? { ...c, lastLocation: { ...c.lastLocation!, latitude: c.lastLocation!.latitude + 0.01 } } : c,
    );
    rerender(<Board cases={moved} />);
    expect(renderedIds()).toEqual(['c7']);
    expect(screen.getAllByTestId('case-card')).toHaveLength(20);
  });
});

describe('AlertBanner', () => {
  it('shows nothing without alerting cases', () => {
    const { container } = render(
      <AlertBanner cases={[]} onAcknowledge={() => {}} onDismiss={() => {}} acknowledging={false} />,
    );
    expect(container.innerHTML).toBe('');
  });

  it('lists several priority-1 cases in ONE banner, a line each with its own Acknowledge and Hide', () => {
    const acknowledged: string[] = [];
    const hidden: string[] = [];
    const cases = [card('a', 1, 3), card('b', 1, 9), card('c', 1, null, { age: null, gender: null })];
    render(
      <AlertBanner
        cases={cases}
        onAcknowledge={(id) => acknowledged.push(id)}
        onDismiss={(id) => hidden.push(id)}
        acknowledging={false}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(within(alert).getByText('▲ Priority 1 inbound (3)')).toBeTruthy();
    const lines = within(alert).getAllByRole('listitem');
    expect(lines.map((li) => li.querySelector('.p1-alert-text')?.textContent)).toEqual([
      'Complaint a — 67 y Female · Riverside EMS Medic 1 · N-a',
      'Complaint b — 67 y Female · Riverside EMS Medic 1 · N-b',
      'Complaint c — Riverside EMS Medic 1 · N-c',
    ]);
    fireEvent.click(within(lines[1]!).getByRole('button', { name: 'Acknowledge' }));
    fireEvent.click(within(lines[2]!).getByRole('button', { name: 'Hide for 2 min' }));
    expect(acknowledged).toEqual(['b']);
    expect(hidden).toEqual(['c']);
  });

  it('shows three lines when many alert at once, newest first, and the rest on request', () => {
    // e started last: it is the one the ED has not seen yet.
    const cases = ['a', 'b', 'c', 'd', 'e'].map((id, i) =>
      card(id, 1, i + 1, { startedAt: new Date(Date.UTC(2026, 10, 25, 10, i)).toISOString() }),
    );
    render(<AlertBanner cases={cases} onAcknowledge={() => {}} onDismiss={() => {}} acknowledging={false} />);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('▲ Priority 1 inbound (5)')).toBeTruthy();
    expect(within(alert).getAllByRole('listitem')).toHaveLength(3);
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.p1-alert-text')?.textContent?.slice(-3)),
    ).toEqual(['N-e', 'N-d', 'N-c']);
    fireEvent.click(within(alert).getByRole('button', { name: 'Show 2 more priority-1 cases' }));
    expect(within(alert).getAllByRole('listitem')).toHaveLength(5);
    fireEvent.click(within(alert).getByRole('button', { name: 'Show fewer' }));
    expect(within(alert).getAllByRole('listitem')).toHaveLength(3);
  });

  it('says no count for a single case and disables Acknowledge while one is being sent', () => {
    render(<AlertBanner cases={[card('a', 1, 3)]} onAcknowledge={() => {}} onDismiss={() => {}} acknowledging />);
    expect(screen.getByText('▲ Priority 1 inbound')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Acknowledge' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
