/**
 * Loads the server harness (server/server-under-test.ts) without making it part of this folder's
 * TypeScript program. The crew's outbox is browser code (DOM types); the server is Node code, and under
 * the DOM's global types some of its valid Node calls no longer type-check (fetch with a Buffer body).
 * So each side is checked as its own app is — this folder with the DOM, server/ with Node only — and
 * the test reaches the server through the interface in server/server-types.ts.
 */
import type { ServerHarness } from './server/server-types';

const SERVER_HARNESS = './server/server-under-test';

export async function loadServerHarness(): Promise<ServerHarness> {
  // A specifier in a variable: TypeScript does not follow it; Vitest resolves it from this file.
  return (await import(/* @vite-ignore */ SERVER_HARNESS)) as ServerHarness;
}
