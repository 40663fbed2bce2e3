import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // The web variant (src/lib/platform.ts); desktop-only components are tested by rendering them directly.
  define: { __INBOUND_DESKTOP__: 'false' },
  test: {
    name: 'crew',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // Component tests render the whole app with lazy routes; under a parallel full run they need headroom.
    testTimeout: 20_000,
  },
});
