// Test environment: jsdom for the DOM, fake-indexeddb for IndexedDB (stored values and the storage key
// live there), jest-dom matchers. WebCrypto is Node's, the same API the browser offers.
import 'fake-indexeddb/auto';
import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { FakeWebSocket } from '@inbound/client/testing';

// No network in unit tests: the app's real-time client gets sockets the tests drive themselves.
globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;

// findBy… waits up to 5 s: lazy routes load on first use, and a full parallel run is slow.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
