import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'no-loss',
    environment: 'node',
    include: ['**/*.test.ts'],
    // fake-indexeddb stands in for the browser's IndexedDB under the crew's real outbox.
    setupFiles: ['./setup.ts'],
    // 200 schedules against the real server and SQLite: one test, about a minute on a 2-core machine.
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
