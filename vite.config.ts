import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const apiPort = process.env.API_PORT ?? '8080';

// One config for the portal build, the dev server (proxying /v1 to the API) and the unit/API/component
// tests. Playwright's e2e suite (e2e/) runs separately against the built app.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/portal', emptyOutDir: true },
  server: { proxy: { '/v1': `http://127.0.0.1:${apiPort}` } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts'],
          globalSetup: ['src/testing/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'portal',
          environment: 'happy-dom',
          include: ['src/portal/**/*.test.{ts,tsx}'],
          // Component tests talk to the real API on a private copy of the seeded database.
          globalSetup: ['src/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
