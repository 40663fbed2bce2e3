import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server serves this build at /hospital/ (the crew app owns /). In development, `vite` proxies the API
// to a server on :8080 so the console talks to the same origin it will in production.
const apiTarget = process.env.INBOUND_API ?? 'http://localhost:8080';

export default defineConfig({
  base: '/hospital/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5174,
    proxy: {
      '/v4': apiTarget,
      '/health': apiTarget,
      // Chat (POST, receipts) and the media files the case detail plays.
      '/notification': apiTarget,
      '/media': apiTarget,
      '/realtime': { target: apiTarget, ws: true },
    },
  },
});
