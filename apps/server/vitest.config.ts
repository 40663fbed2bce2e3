import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // argon2 and database setup make single tests slower than unit tests usually are.
    testTimeout: 20_000,
    // Test files share nothing but the module cache; reusing it saves ~15 s of imports per run.
    isolate: false,
    hookTimeout: 30_000,
  },
});
