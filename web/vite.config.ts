import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import type { Topology } from 'topojson-specification';
import { outlineOf } from './src/rainfall/ukOutlineExtract.ts';
import { parseGazetteer } from './src/rainfall/gazetteerData.ts';
import { worldOf } from './src/staff/worldOutline.ts';

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

// The rainfall map's UK outline (Natural Earth 1:10m, from world-atlas),
// cut out when the map's chunk is built: about 110 kB instead of the world's 3.5 MB.
function ukOutline(): Plugin {
  const id = 'virtual:uk-outline';
  const resolved = `\0${id}`;
  return {
    name: 'draindesign-uk-outline',
    resolveId: (source) => (source === id ? resolved : null),
    load(which) {
      if (which !== resolved) return null;
      const file = createRequire(import.meta.url).resolve('world-atlas/countries-10m.json');
      const topology = JSON.parse(readFileSync(file, 'utf8')) as Topology;
      return `export default ${JSON.stringify(outlineOf(topology))};`;
    },
  };
}

// The rainfall map's gazetteer (GeoNames towns, ONS postcode districts; see
// domain/rainfall/data/GAZETTEER.md), compacted when the map's chunk is built.
function ukGazetteer(): Plugin {
  const id = 'virtual:uk-gazetteer';
  const resolved = `\0${id}`;
  const data = resolve(import.meta.dirname, '../domain/rainfall/data');
  return {
    name: 'draindesign-uk-gazetteer',
    resolveId: (source) => (source === id ? resolved : null),
    load(which) {
      if (which !== resolved) return null;
      const places = resolve(data, 'uk-places.csv');
      const districts = resolve(data, 'uk-postcode-districts.csv');
      this.addWatchFile(places);
      this.addWatchFile(districts);
      return `export default ${JSON.stringify(parseGazetteer(readFileSync(places, 'utf8'), readFileSync(districts, 'utf8')))};`;
    },
  };
}

// The staff map's countries (Natural Earth 1:110m, from world-atlas), for
// its own chunk: about 150 kB, and no tile server needed.
function worldOutline(): Plugin {
  const id = 'virtual:world-outline';
  const resolved = `\0${id}`;
  return {
    name: 'draindesign-world-outline',
    resolveId: (source) => (source === id ? resolved : null),
    load(which) {
      if (which !== resolved) return null;
      const file = createRequire(import.meta.url).resolve('world-atlas/countries-110m.json');
      const topology = JSON.parse(readFileSync(file, 'utf8')) as Topology;
      return `export default ${JSON.stringify(worldOf(topology))};`;
    },
  };
}

export default defineConfig({
  plugins: [react(), keepDistPlaceholder(), ukOutline(), ukGazetteer(), worldOutline()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Source maps would triple what the Go binary embeds.
    sourcemap: false,
    // Two pages: the app, and the API reference the Go server serves at /api/docs/.
    rolldownOptions: {
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        apidocs: resolve(import.meta.dirname, 'apidocs/index.html'),
      },
    },
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
