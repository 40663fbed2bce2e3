import { describe, expect, it } from 'vitest';
import type { BoardCase, HospitalTeam, TeamActivation } from '@inbound/contract';
import { kindOfComplaint, proposals } from './proposal';

const card = (id: string, name: string, priority: 1 | 2 | 3) =>
  ({
    id,
    caseNumber: id.toUpperCase(),
    complaint: { id: `c-${id}`, name, color: '#c00', priority },
  }) as unknown as BoardCase;
const team = (id: string, kind: HospitalTeam['kind']): HospitalTeam => ({
  _id: id,
  hospitalId: 'h',
  kind,
  name: kind,
  members: [],
});

describe('activation proposals', () => {
  it('knows the kind a complaint calls for', () => {
    expect(kindOfComplaint('Stroke')).toBe('stroke');
    expect(kindOfComplaint('Suspected CVA')).toBe('stroke');
    expect(kindOfComplaint('STEMI')).toBe('stemi');
    expect(kindOfComplaint('Major trauma')).toBe('trauma');
    expect(kindOfComplaint('Abdominal pain')).toBeNull();
    expect(kindOfComplaint('Strokes of luck')).toBeNull();
  });

  it('proposes a team for a priority-1 case of its kind, until it is activated', () => {
    const teams = [team('t-stroke', 'stroke'), team('t-trauma', 'trauma')];
    const cards = [card('a', 'Stroke', 1), card('b', 'Stroke', 2), card('c', 'STEMI', 1), card('d', 'Trauma', 1)];
    expect(proposals(cards, teams, []).map((p) => [p.card.id, p.team._id])).toEqual([
      ['a', 't-stroke'],
      ['d', 't-trauma'],
    ]);
    const activated = [{ caseId: 'a', teamId: 't-stroke' } as TeamActivation];
    expect(proposals(cards, teams, activated).map((p) => p.card.id)).toEqual(['d']);
  });
});
