import { describe, expect, it } from 'vitest';
import { routes } from '@inbound/contract';
import { routeRequest } from './routeRequest';

describe('routeRequest', () => {
  it("takes method and path from the contract's route table, filling and encoding parameters", () => {
    expect(routeRequest('caseTagValues', { params: { id: 'c 1', tagId: 't/2' } })).toEqual({
      method: 'PATCH',
      path: '/v4/twiageCases/c%201/tags/t%2F2/values',
    });
    expect(routeRequest('monitorIntegration', { params: { type: 'zoll', caseId: 'c1' } })).toEqual({
      method: routes.monitorIntegration.method,
      path: '/monitor-integration/zoll/c1',
    });
  });

  it('adds the query, encoded like a path segment, and leaves out undefined values', () => {
    expect(routeRequest('addCaseTag', { params: { id: 'c1' }, query: { tagId: 'tag 1' } }).path).toBe(
      '/v4/twiageCases/c1/tags?tagId=tag%201',
    );
    expect(routeRequest('team', { params: { id: 'a' }, query: { fields: undefined } }).path).toBe('/v4/emsAgencies/a');
    expect(routeRequest('me')).toEqual({ method: 'GET', path: '/v4/users/me' });
  });

  it('refuses a path with a parameter missing', () => {
    expect(() => routeRequest('getCase', { params: {} as { id: string } })).toThrow(/missing path parameter id/);
  });
});
