import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The Django backend serves dist/index.html for every non-/api path and the
// bundles under /assets/, so the build keeps Vite's default base and assetsDir.
export default defineConfig({
  plugins: [react()],
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
  },
  test: {
    // Pure logic runs in node; component tests opt into jsdom with a docblock.
    environment: 'node',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
