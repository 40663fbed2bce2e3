import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each keeps its own config (environment, setup) beside its code.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on CI's 2-core machine, one file at a time. Most
    // of our files wait on fsync, PostgreSQL, sockets and timers, so two side by side: 664 → 466 s there.
    maxWorkers: 2,
    projects: [
      'packages/contract',
      'packages/client',
      'packages/gps',
      'apps/server',
      'apps/crew',
      'apps/hospital',
      'apps/desktop',
      'tests/no-loss',
      'tests/docs',
    ],
  },
});
