import { describe, expect, it } from 'vitest';
import { caseMutations } from './caseMutations';

describe('caseMutations', () => {
  it('builds each case call of spec §7', () => {
    const id = 'case-1';
    const calls = [
      caseMutations.createCase('placeholder-1', { emsAgency: 'a', truck: 't', beganAt: '2026-11-21T23:00:00.000Z' }),
      caseMutations.patchCase(id, { complaint: 'stroke' }),
      caseMutations.addTag(id, 'tag 1'),
      caseMutations.removeTag(id, 'tag-1'),
      caseMutations.tagValues(id, 'tag-1', { fields: [{ key: 'k', value: '3', name: 'N', type: 'number' }] }),
      caseMutations.location(id, { latitude: 1, longitude: 2 }),
      caseMutations.dynamicForm(id, 'form-1', { fields: [] }),
      caseMutations.monitor(id, 'zoll', { monitorId: 'm-1', patientId: '0042' }),
      caseMutations.caseFeedback(id, { rating: 4, notes: '', type: 'ems' }),
    ];
    expect(calls.map((c) => `${c.kind} ${c.method} ${c.path}`)).toEqual([
      'createCase POST /v4/twiageCases?placeholderId=placeholder-1',
      'patchCase PATCH /v4/twiageCases/case-1',
      'addTag POST /v4/twiageCases/case-1/tags?tagId=tag%201',
      'removeTag DELETE /v4/twiageCases/case-1/tags?tagId=tag-1',
      'tagValues PATCH /v4/twiageCases/case-1/tags/tag-1/values',
      'location POST /v4/twiageCases/case-1/locationUpdates',
      'dynamicForm PUT /v4/twiageCases/case-1/dynamicForms/form-1',
      'monitor PATCH /monitor-integration/zoll/case-1',
      'caseFeedback POST /v4/twiageCases/case-1/case-feedback',
    ]);
    expect(calls.every((c) => c.caseId === id || c.caseId === 'placeholder-1')).toBe(true);
  });

  it('names media files as the spec does and sends them as `data` with their `type`', () => {
    const blob = new Blob(['x'], { type: 'video/mp4' });
    expect(caseMutations.media('case-1', 'video', blob)).toEqual({
      caseId: 'case-1',
      kind: 'media',
      method: 'POST',
      path: '/media/twiage-cases/case-1/uploads',
      media: { blob, fileName: 'video.mp4', fileField: 'data', fields: { type: 'video' } },
    });
    expect(caseMutations.media('case-1', 'voicememo', blob).media?.fileName).toBe('voicememo.mp3');
    expect(caseMutations.media('case-1', 'ekg', blob).media?.fileName).toBe('ekg.jpeg');
  });

  it('refuses at the tap what the server would refuse later', () => {
    expect(() => caseMutations.patchCase('case-1', { age: 121, agePeriod: 3 })).toThrow();
    expect(() => caseMutations.patchCase('case-1', { gender: 'X' } as never)).toThrow();
    expect(() => caseMutations.monitor('case-1', 'zoll', { monitorId: 'm', patientId: '12345' })).toThrow();
    expect(() => caseMutations.caseFeedback('case-1', { rating: 0, notes: '', type: 'ems' })).toThrow();
  });
});
