import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { UUID_SHAPED_PATTERN } from '../src/contract';
import { SQLITE_FILE_NAME } from '../src/server/open-store';
import { chooseCountry, expect, expectAccessible, signIn, test, typeLikeAPerson } from './fixtures';

// Slow is not down: a service that takes the request and never answers. This spec runs its OWN server process
// (the shared one serves the other specs) on a copy of the shared e2e data, so it can freeze it with SIGSTOP
// (the kernel still accepts the connections; nothing answers) and thaw it with SIGCONT.

let server: ChildProcess | undefined;
let dataDir: string | undefined;
let baseURL = '';

/** Signals the server's whole process group (node and whatever it started). */
function signal(name: NodeJS.Signals) {
  if (server?.pid === undefined || server.exitCode !== null || server.signalCode !== null) return;
  try {
    process.kill(-server.pid, name);
  } catch {
    // already gone
  }
}

/** Never leaves a stopped server behind, even when the runner itself ends. */
const thawAndKill = () => {
  signal('SIGCONT');
  signal('SIGKILL');
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(join(tmpdir(), 'rpl-e2e-frozen-'));
  const shared = process.env.E2E_DATA_DIR;
  if (shared && existsSync(join(shared, SQLITE_FILE_NAME))) {
    // A consistent copy of the seeded database the shared server holds open (its WAL included).
    const source = new Database(join(shared, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
    try {
      await source.backup(join(dataDir, SQLITE_FILE_NAME));
    } finally {
      source.close();
    }
  }
  // The compiled server (`npm start` built it), started by node itself: one process, so SIGSTOP stops the server
  // itself (npm would be its parent).
  server = spawn(process.execPath, ['dist/server/main.js'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      CORRESPONDENTS_FILE: 'e2e/correspondents.txt',
    },
  });
  process.once('exit', thawAndKill);
  let output = '';
  baseURL = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not start:\n${output}`)), 170_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /serving on (http:\/\/[\d.:a-z]+)\//.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    server!.stdout!.on('data', read);
    server!.stderr!.on('data', read);
    server!.once('exit', (code) => reject(new Error(`The server exited (${code}):\n${output}`)));
  });
  // Listening comes before the search index is built: lookups answer 503 until /readyz says ready.
  await expect
    .poll(async () => (await fetch(`${baseURL}/readyz`).catch(() => undefined))?.status, { timeout: 120_000 })
    .toBe(200);
});

test.afterAll(() => {
  thawAndKill();
  process.removeListener('exit', thawAndKill);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('a frozen service: the teller is told it is not answering, with a reference, and the answer comes by itself when it is back', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page);
  // Every agent search the browser sends, with its correlation id (the reference the notice must show).
  const sent = new Map<string, string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/v1/agents')
      sent.set(request.headers()['x-correlation-id'] ?? '', url.searchParams.get('search') ?? '');
  });

  await page.goto(`${baseURL}/agents`);
  await chooseCountry(page, 'mex', /Mexico \(MX\)/);
  const rows = page.getByRole('table', { name: 'Agents' }).locator('tbody tr');
  await expect(rows).toHaveCount(50);
  const search = page.getByLabel('Search head office or agent name');
  await typeLikeAPerson(search, ['OX']);
  await expect(page).toHaveURL(/search=OX(&|$)/);
  await expect(rows.first()).toContainText('OX');

  const notice = page.getByTestId('service-not-answering');
  try {
    // Mid-search the service freezes: it takes the next request and does not answer.
    signal('SIGSTOP');
    const frozenAt = Date.now();
    await typeLikeAPerson(search, ['X', 'O'], [300]);
    await expect(page).toHaveURL(/search=OXXO/);
    await expect(page.getByTestId('results-stale')).toBeVisible();

    // Slow is not down: within 10 s the teller reads that the service is not answering, with the reference of
    // a request for what the field holds.
    await expect(notice).toBeVisible({ timeout: 10_000 });
    await expect(notice).toContainText('The service is not answering');
    await expect(notice).toContainText(/A request sent at .+ has had no answer yet/);
    const reference = (await page.getByTestId('service-reference').textContent()) ?? '';
    expect(reference).toMatch(UUID_SHAPED_PATTERN);
    expect(sent.get(reference)).toBe('OXXO');
    await expect(search).toHaveValue('OXXO');
    await expectAccessible(page);

    // Still frozen: still told, still waiting (no error pretends the service is down).
    await page.waitForTimeout(Math.max(0, frozenAt + 20_000 - Date.now()));
    await expect(notice).toBeVisible();
    await expect(page.getByTestId('problem')).toHaveCount(0);
  } finally {
    signal('SIGCONT');
  }

  // Back: the answer for OXXO is on the screen within 5 s, without a click, and the notice is gone.
  await expect(page.getByTestId('results-stale')).toBeHidden({ timeout: 5_000 });
  await expect(rows.first()).toContainText('OXXO', { timeout: 5_000 });
  await expect(notice).toBeHidden({ timeout: 5_000 });
  await expect(search).toHaveValue('OXXO');
});
