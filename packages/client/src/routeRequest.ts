/**
 * The method and path of a call, from the contract's route table (`routes` in @inbound/contract): the
 * one place a client turns a route name and its parameters into a request line. The API client uses
 * it for every call; the crew outbox stores its answer with each queued change (the outbox rewrites
 * the placeholder id in the stored path once the server has given the case its real id).
 *
 *   routeRequest('addCaseTag', { params: { id: caseId }, query: { tagId } })
 *   // → { method: 'POST', path: '/v4/twiageCases/c1/tags?tagId=t1' }
 */
import { buildPath, routes, type RouteDef, type RouteName, type RouteParams, type RouteQuery } from '@inbound/contract';

export interface RouteTarget<K extends RouteName = RouteName> {
  method: (typeof routes)[K]['method'];
  /** The path with its parameters filled and the query string, if any. */
  path: string;
}

export interface RouteInput<K extends RouteName> {
  params?: RouteParams<K>;
  query?: RouteQuery<K>;
}

export function routeRequest<K extends RouteName>(name: K, input: RouteInput<K> = {}): RouteTarget<K> {
  const route: (typeof routes)[K] & RouteDef = routes[name];
  return { method: route.method, path: buildPath(route.path, stringValues(input.params)) + queryString(input.query) };
}

/** `?a=1&b=x%20y` from an object's defined values (none: the empty string); encoded as path segments are. */
export function queryString(query: unknown): string {
  const pairs = Object.entries(stringValues(query)).map(
    ([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
  );
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function stringValues(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value || typeof value !== 'object') return out;
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== undefined && entry !== null) out[key] = String(entry);
  }
  return out;
}
