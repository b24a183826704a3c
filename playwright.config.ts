import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';

// The e2e suite drives the REAL server as `npm start` runs it (the compiled dist/server/main.js, serving the built
// portal), seeded from the real data into a fresh data folder, in headless Chromium. `npm run test:e2e` builds
// dist/ first when the sources changed (scripts/build.ts --if-changed).
//
// Two servers: the desk specs publish changes, so they run on a server of their own (the next port, its own data
// folder) and the teller specs, run beside them, read the shipped data unchanged. A spec finds its server's data
// folder in its project's metadata (e2e/desk.ts, dataDir).

const PORT = Number(process.env.E2E_PORT ?? 8310);
const DESK_PORT = PORT + 1;
// Set once in the runner process; workers inherit them, so every process sees the same folders.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'rpl-e2e-'));
process.env.E2E_DESK_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'rpl-e2e-desk-'));

const DESK_SPECS = /\/(operations-desk|ops-[\w-]+)\.spec\.ts$/;
// Tests that measure time in the browser (Lighthouse, the debounce) run last, one at a time, on a quiet machine.
const ALONE = /@alone/;

// Debian's chromium when installed (scripts/ensure-browser.sh), else Playwright's own download.
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const browser = {
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
};

function server(port: number, dataDir: string): Extract<PlaywrightTestConfig['webServer'], { command: string }> {
  return {
    command: 'npm start',
    url: `http://127.0.0.1:${port}/v1/openapi.json`,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // The correspondent registry is on, as in production, so sign-in meets a real 403 for an unknown id.
      CORRESPONDENTS_FILE: 'e2e/correspondents.txt',
      // The desk specs publish versions one after another on their server: the baseline stays kept for
      // ops-versions' compare.
      DESK_VERSIONS_KEPT: '50',
      // PORTAL_DIR lets a run serve another build of the portal (e.g. main's, to see a new test fail there).
      ...(process.env.PORTAL_DIR ? { PORTAL_DIR: process.env.PORTAL_DIR } : {}),
    },
    // First start seeds ~25,000 branches and agents from data/seed.
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  };
}

export default defineConfig({
  testDir: 'e2e',
  // Two workers: a browser test mostly waits (typing pauses, debounces, answers). The desk specs run one after
  // another on their server (listed first, so they start at once beside the teller specs); the tests tagged
  // @alone run last, one at a time. A retry only on CI, where a slow machine may hiccup.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Generous: five engineers share two cores, and the first start seeds the data.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : 'list',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // A trace (a screencast and a DOM snapshot at every action) is recorded for a retry only: recording it for
    // every test was much of the browser's work (docs/architecture.md, Tests). On CI a failing test is retried,
    // traced; locally,
    // `npx playwright test --trace on` records one.
    trace: 'on-first-retry',
    permissions: ['clipboard-read', 'clipboard-write'],
  },
  projects: [
    {
      name: 'desk',
      testMatch: DESK_SPECS,
      workers: 1,
      use: { ...browser, baseURL: `http://127.0.0.1:${DESK_PORT}` },
      metadata: { dataDir: process.env.E2E_DESK_DATA_DIR },
    },
    {
      name: 'teller',
      testIgnore: DESK_SPECS,
      grepInvert: ALONE,
      use: browser,
      metadata: { dataDir: process.env.E2E_DATA_DIR },
    },
    {
      name: 'alone',
      testIgnore: DESK_SPECS,
      grep: ALONE,
      workers: 1,
      dependencies: ['desk', 'teller'],
      use: browser,
      metadata: { dataDir: process.env.E2E_DATA_DIR },
    },
  ],
  webServer: [server(PORT, process.env.E2E_DATA_DIR), server(DESK_PORT, process.env.E2E_DESK_DATA_DIR)],
});
