import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'hospital',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // A fresh worker per file loaded jsdom and React again for each of ~30 files: 54 s of a worker's time
    // against 12 s shared. What a file could leave behind is reset by the setup file; every file unmounts
    // what it rendered. Shuffled orders (`--sequence.shuffle`) are green.
    isolate: false,
    setupFiles: ['src/test-setup.ts'],
  },
});
