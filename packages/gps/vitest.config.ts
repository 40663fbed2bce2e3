import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'gps', environment: 'node', include: ['src/**/*.test.ts'] } });
