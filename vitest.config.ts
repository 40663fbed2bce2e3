import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each keeps its own config (environment, setup) beside its code.
export default defineConfig({
  test: {
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
