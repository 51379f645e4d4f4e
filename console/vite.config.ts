import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Built to static files under dist/, served by the gateway at /console (services/gateway
 * routes/console). Hashed file names let the gateway cache assets for a year; the chart library
 * is loaded only by the pages that draw charts (a dynamic import), so sign-in stays small.
 */
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    // inline nothing: the CSP allows scripts and styles from files only
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  // settings.js is the gateway's (written at run time, so index.html marks it vite-ignore)
  server: { proxy: { '/v1': 'http://localhost:8080', '/console/settings.js': 'http://localhost:8080' } },
});
