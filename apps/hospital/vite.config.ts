import { constants as zlibConstants } from 'node:zlib';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

// The server serves this build at /hospital/ (the crew app owns /). In development, `vite` proxies the API
// to a server on :8080 so the console talks to the same origin it will in production.
const apiTarget = process.env.INBOUND_API ?? 'http://localhost:8080';

export default defineConfig({
  base: '/hospital/',
  plugins: [
    react(),
    // Brotli and gzip copies beside each text file, served by Accept-Encoding (apps/server/src/http/static-apps.ts).
    compression({
      include: /\.(js|css|html|svg|json)$/,
      exclude: /\.map$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
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
