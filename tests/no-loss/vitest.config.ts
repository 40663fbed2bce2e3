import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'no-loss',
    environment: 'node',
    include: ['**/*.test.ts'],
    // fake-indexeddb stands in for the browser's IndexedDB under the crew's real outbox.
    setupFiles: ['./setup.ts'],
    // 200 schedules against the real server and SQLite: one test of about 25 s of CPU. Shrinking a
    // failure runs many more; the generous limit lets it finish and print the smallest schedule.
    testTimeout: 900_000,
    hookTimeout: 60_000,
  },
});
