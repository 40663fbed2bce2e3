/**
 * Types derived from the `routes` table, so a client can type a call by its route name alone:
 * `RouteResponse<'me'>` is the parsed user, `RouteBody<'signIn'>` the sign-in body.
 */
import type { z } from 'zod';
import type { RouteName, Routes } from './api.js';

/** What the route's response schema parses to; `void` for routes that answer nothing (`response: null`). */
export type RouteResponse<K extends RouteName> = Routes[K]['response'] extends z.ZodType
  ? z.output<Routes[K]['response']>
  : // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- "answers nothing" is exactly void
    void;

/** The body a client sends to the route; `undefined` when the route takes none. */
export type RouteBody<K extends RouteName> = Routes[K] extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : undefined;

/** The path parameters of the route; `undefined` when its path has none. */
export type RouteParams<K extends RouteName> = Routes[K] extends { params: infer P extends z.ZodType }
  ? z.input<P>
  : undefined;

/** The query of the route; `undefined` when it takes none. */
export type RouteQuery<K extends RouteName> = Routes[K] extends { query: infer Q extends z.ZodType }
  ? z.input<Q>
  : undefined;
