import { describe, expect, it } from 'vitest';
import type { Tag } from '@inbound/contract';
import {
  brightness,
  tagBackground,
  tagChanges,
  tagFieldsToSubmit,
  textColorFor,
  toDateTimeLocalValue,
  toZonedIsoString,
} from './tagRules';

const tag = (id: string, groupIdentifier: string | null = null): Tag => ({
  id,
  name: id,
  groupIdentifier,
  category: null,
  data: [],
});

describe('text colour by brightness (spec §9)', () => {
  it.each([
    ['#FFFFFF', '#000000'],
    ['#000000', '#FFFFFF'],
    ['#AAAAAA', '#000000'],
    ['#D32F2F', '#FFFFFF'],
    ['#FFC107', '#000000'],
    ['#1D5FBF', '#FFFFFF'],
  ])('%s → %s', (background, text) => {
    expect(textColorFor(background)).toBe(text);
  });

  it('uses 128 as the threshold: at least 128 is black', () => {
    expect(brightness('#808080')).toBe(128);
    expect(textColorFor('#808080')).toBe('#000000');
    expect(brightness('#7F7F7F')).toBe(127);
    expect(textColorFor('#7F7F7F')).toBe('#FFFFFF');
  });

  it('colours a selected tag with the complaint colour (default #AAAAAA), an unselected one white', () => {
    expect(tagBackground({ color: '#D32F2F' }, true)).toBe('#D32F2F');
    expect(tagBackground({ color: '' }, true)).toBe('#AAAAAA');
    expect(tagBackground(null, true)).toBe('#AAAAAA');
    expect(tagBackground({ color: '#D32F2F' }, false)).toBe('#FFFFFF');
  });
});

describe('tag rules (spec §4)', () => {
  const left = tag('left', 'side');
  const right = tag('right', 'side');
  const droop = tag('droop');
  const all = [left, right, droop];

  it('removes a selected tag', () => {
    expect(tagChanges(new Set(['left']), left, all)).toEqual([{ op: 'remove', tagId: 'left' }]);
  });

  it('swaps within a group: the old one out first, then the new one in', () => {
    expect(tagChanges(new Set(['left', 'droop']), right, all)).toEqual([
      { op: 'remove', tagId: 'left' },
      { op: 'add', tagId: 'right' },
    ]);
  });

  it('adds a tag with no group, or whose group has nothing selected', () => {
    expect(tagChanges(new Set(['left']), droop, all)).toEqual([{ op: 'add', tagId: 'droop' }]);
    expect(tagChanges(new Set(['droop']), right, all)).toEqual([{ op: 'add', tagId: 'right' }]);
  });
});

describe('data-enabled tag fields (spec §5)', () => {
  const fields = [
    { key: 'lkw', name: 'Last known well', type: 'datetime' as const },
    { key: 'gcs', name: 'GCS', type: 'number' as const },
    { key: 'note', name: 'Note', type: 'text' as const },
  ];

  it('drops blank fields and an unedited datetime: nothing to send keeps ADD disabled', () => {
    expect(
      tagFieldsToSubmit(fields, {
        lkw: { value: '2026-11-21T22:10', edited: false },
        gcs: { value: ' ', edited: true },
      }),
    ).toEqual([]);
  });

  it('sends an edited datetime in full time-zone form, and the other values as typed', () => {
    const sent = tagFieldsToSubmit(fields, {
      lkw: { value: '2026-11-21T22:10', edited: true },
      gcs: { value: '14', edited: true },
    });
    expect(sent).toEqual([
      { key: 'lkw', name: 'Last known well', type: 'datetime', value: toZonedIsoString(new Date('2026-11-21T22:10')) },
      { key: 'gcs', name: 'GCS', type: 'number', value: '14' },
    ]);
    expect(sent[0]?.value).toMatch(/^2026-11-21T22:10:00\.000[+-]\d{2}:\d{2}$/);
  });

  it('formats local times with their offset', () => {
    const date = new Date(2026, 0, 2, 3, 4, 5, 6);
    expect(toZonedIsoString(date).slice(0, 23)).toBe('2026-01-02T03:04:05.006');
    expect(new Date(toZonedIsoString(date)).getTime()).toBe(date.getTime());
    expect(toDateTimeLocalValue(date)).toBe('2026-01-02T03:04');
  });
});
