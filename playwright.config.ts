import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The e2e suite drives the REAL server as `npm start` runs it (the compiled dist/server/main.js, serving the built
// portal), seeded from the real data into a fresh data folder, in headless Chromium. `npm run test:e2e` builds
// dist/ first when the sources changed (scripts/build.ts --if-changed).

const PORT = Number(process.env.E2E_PORT ?? 8310);
// Set once in the runner process; workers inherit it, so every process sees the same folder.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'rpl-e2e-'));

// Debian's chromium when installed (scripts/ensure-browser.sh), else Playwright's own download.
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  // Two shared cores: one worker, and a retry only on CI where a slow machine may hiccup.
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // Generous: five engineers share two cores, and the first start seeds the data.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : 'list',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    permissions: ['clipboard-read', 'clipboard-write'],
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'npm start',
    url: `http://127.0.0.1:${PORT}/v1/openapi.json`,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      // The correspondent registry is on, as in production, so sign-in meets a real 403 for an unknown id.
      CORRESPONDENTS_FILE: 'e2e/correspondents.txt',
      // Every desk spec publishes versions on the one server: the baseline stays kept for ops-versions' compare.
      DESK_VERSIONS_KEPT: '50',
      // PORTAL_DIR lets a run serve another build of the portal (e.g. main's, to see a new test fail there).
      ...(process.env.PORTAL_DIR ? { PORTAL_DIR: process.env.PORTAL_DIR } : {}),
    },
    // First start seeds ~25,000 branches and agents from data/seed.
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  },
});
