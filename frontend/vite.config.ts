import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

import { routePreloads } from './build/routePreloads.ts';

const OWN_SCRIPT = /\/frontend\/src\/.*\.tsx?$/;
const FEATURE_PAGES = /\/src\/features\/([^/]+)\/routes\/index\.ts$/;

function isOwnScript(id: string): boolean {
  return OWN_SCRIPT.test(id);
}

// The Django backend serves dist/index.html for every non-/api path and the
// bundles under /assets/, so the build keeps Vite's default base and assetsDir.
export default defineConfig({
  plugins: [react(), routePreloads(fileURLToPath(new URL('./src/app/routes.tsx', import.meta.url)))],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      // changeOrigin stays false: Django's CSRF check compares the Origin header with
      // the Host header, and both must name the dev server for unsafe requests to pass.
      '/api': { target: process.env.LIGHTPATH_URL ?? 'http://127.0.0.1:8000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    rolldownOptions: {
      // Our modules do nothing when imported but export (and import their CSS): without this, a
      // feature's index re-exporting a component with a stylesheet pulled that component (and D3)
      // into the first download. Dependencies keep what their package.json says.
      treeshake: { moduleSideEffects: (id) => (isOwnScript(id) ? false : undefined) },
      output: {
        codeSplitting: {
          // The first download is one file of what every page needs (React, the router, the
          // layout); D3 is one chunk for the pages with charts; shared code smaller than 12 KB is
          // copied into each page's chunk rather than fetched apart (a phone pays ~300 ms per
          // round trip; the ticket page went from 18 requests to 1). Our shared modules hold no
          // state that two copies could split (the API client's sits in the first download).
          groups: [
            { name: 'app', tags: ['$initial'], priority: 3 },
            { name: 'd3', test: /node_modules[\\/](d3-|internmap)/, priority: 2 },
          ],
          experimentalInlineCommonChunks: { maxSize: 12_000 },
        },
        // Each feature's pages are one lazily loaded chunk named after the feature
        // ("tickets-pages-<hash>.js"), so BENCHMARKS.md and the network panel say what loads.
        chunkFileNames: (chunk) => {
          const feature = chunk.facadeModuleId?.match(FEATURE_PAGES)?.[1];
          return feature ? `assets/${feature}-pages-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
  test: {
    // Pure logic runs in node; component tests opt into jsdom with a docblock.
    environment: 'node',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
