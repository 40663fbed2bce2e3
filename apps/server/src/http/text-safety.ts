/**
 * Where the contract's text rule (packages/contract text-safety.ts) is enforced for HTTP: the JSON
 * body parser and one preValidation hook over path parameters and the query string. A control
 * character or a lone surrogate is a 400 naming the field, on SQLite and PostgreSQL alike, before any
 * schema or database sees it.
 */
import type { preValidationAsyncHookHandler } from 'fastify';
import { describeUnsafeText, findUnsafeText } from '@inbound/contract';
import { badRequest } from '../errors.js';

/** A JSON request body as text → its value; throws a 400 for bad JSON or unsafe text. */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  const unsafe = findUnsafeText(value);
  if (unsafe) throw badRequest(describeUnsafeText('body', unsafe));
  return value;
}

/** Refuses unsafe text in the path parameters and the query string. */
export const refuseUnsafeParameters: preValidationAsyncHookHandler = async (request) => {
  for (const [where, value] of [
    ['params', request.params],
    ['query', request.query],
  ] as const) {
    const unsafe = findUnsafeText(value);
    if (unsafe) throw badRequest(describeUnsafeText(where, unsafe));
  }
};
