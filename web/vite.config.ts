import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

// The Go server serves /api in production; in development it runs separately on 8080.
const apiTarget = process.env.DRAINDESIGN_API ?? 'http://127.0.0.1:8080';

// Vite empties dist/ before each build; the committed dist/.keep must come back
// so that `go build ./web/` (go:embed all:dist) works from a fresh clone and after builds.
function keepDistPlaceholder(): Plugin {
  return {
    name: 'draindesign-keep-dist',
    apply: 'build',
    closeBundle() {
      writeFileSync(resolve(import.meta.dirname, 'dist/.keep'), '');
    },
  };
}

export default defineConfig({
  plugins: [react(), keepDistPlaceholder()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Source maps would triple what the Go binary embeds.
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: apiTarget, changeOrigin: false, ws: true } },
  },
  preview: {
    host: '127.0.0.1',
    proxy: { '/api': { target: apiTarget, changeOrigin: false, ws: true } },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Screen tests type into whole forms; a busy two-core machine needs the headroom.
    testTimeout: 20_000,
  },
});
