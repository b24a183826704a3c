import type { CDPSession, Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';

// What a teller's connection carries. Bytes are counted by Chromium itself (CDP
// Network.loadingFinished: encodedDataLength, headers included, as received on the wire), on the built portal
// served by the real server.

const AGENTS = '/agents?receivingCountry=MX&deliveryMode=01';
const FIRST_LOAD_BUDGET = 250 * 1024;
const REPEAT_STATIC_BUDGET = 10 * 1024;

interface Transfer {
  url: string;
  bytes: number;
  fromCache: boolean;
}

/** Every request of the page from now on, with the bytes it took on the wire. */
async function countTransfers(page: Page): Promise<{ transfers: Transfer[]; session: CDPSession }> {
  const session = await page.context().newCDPSession(page);
  await session.send('Network.enable');
  // A cold start: nothing in the HTTP cache of this browser profile.
  await session.send('Network.clearBrowserCache');
  const urls = new Map<string, { url: string; fromCache: boolean }>();
  const transfers: Transfer[] = [];
  session.on('Network.requestWillBeSent', (event) =>
    urls.set(event.requestId, { url: event.request.url, fromCache: false }),
  );
  session.on('Network.requestServedFromCache', (event) => {
    const request = urls.get(event.requestId);
    if (request) request.fromCache = true;
  });
  session.on('Network.responseReceived', (event) => {
    const request = urls.get(event.requestId);
    if (request && event.response.fromDiskCache) request.fromCache = true;
  });
  session.on('Network.loadingFinished', (event) => {
    const request = urls.get(event.requestId);
    if (request) transfers.push({ ...request, bytes: event.encodedDataLength });
  });
  return { transfers, session };
}

const total = (transfers: Transfer[]) => transfers.reduce((sum, t) => sum + t.bytes, 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const isStatic = (url: string) => !new URL(url).pathname.startsWith('/v1/');

/** The agents screen, signed in, until its results are on screen and the network is quiet. */
async function openAgents(page: Page) {
  await page.goto(AGENTS);
  await expect(page.getByTestId('result-total')).toHaveText(/\d agents/);
  await page.waitForLoadState('networkidle');
}

test.beforeEach(async ({ page }) => signIn(page));

test('first load of the signed-in agents screen: at most 250 KB transferred', async ({ page }) => {
  // The contract's schemas (zod) now arrive with the first validation, not the first screen.
  const { transfers } = await countTransfers(page);
  await openAgents(page);
  const firstBytes = total(transfers);
  console.log(
    `first load: ${kb(firstBytes)} in ${transfers.length} requests (static ${kb(total(transfers.filter((t) => isStatic(t.url))))}, API ${kb(total(transfers.filter((t) => !isStatic(t.url))))})`,
  );
  for (const t of [...transfers].sort((a, b) => b.bytes - a.bytes).slice(0, 8))
    console.log(`  ${kb(t.bytes).padStart(9)}  ${new URL(t.url).pathname}`);
  expect(transfers.some((t) => /\/assets\/index-.*\.js$/.test(t.url))).toBe(true);
  expect(firstBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
});

test('a repeat visit of the agents screen fetches at most 10 KB of static files', async ({ page }) => {
  const { transfers } = await countTransfers(page);
  await openAgents(page);
  const firstStatic = total(transfers.filter((t) => isStatic(t.url)));
  // The teller comes back: hashed files come from the cache without a request to the server; index.html is
  // revalidated (a 304); the lookups are asked again (no-store).
  transfers.length = 0;
  await openAgents(page);
  const repeat = transfers.filter((t) => isStatic(t.url));
  const repeatBytes = total(repeat);
  console.log(
    `repeat visit: ${kb(repeatBytes)} of static files over the network (first load: ${kb(firstStatic)}), API ${kb(total(transfers.filter((t) => !isStatic(t.url))))}`,
  );
  for (const t of repeat.filter((r) => r.bytes > 0))
    console.log(`  ${kb(t.bytes).padStart(9)}  ${new URL(t.url).pathname}${t.fromCache ? ' (cache)' : ''}`);
  expect(repeat.filter((t) => /\/assets\//.test(t.url) && !t.fromCache)).toEqual([]);
  expect(repeat.length).toBeGreaterThan(0);
  expect(repeatBytes).toBeLessThanOrEqual(REPEAT_STATIC_BUDGET);
});

test('the main script and a 50-row branch page arrive Brotli-compressed; hashed files are immutable, index.html no-cache', async ({
  page,
}) => {
  const responses: { url: string; headers: Record<string, string> }[] = [];
  page.on('response', async (response) =>
    responses.push({ url: response.url(), headers: await response.allHeaders() }),
  );
  await page.goto('/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=FDRLIN&pageSize=50');
  await expect(page.getByTestId('result-total')).toHaveText(/branches/);
  await page.waitForLoadState('networkidle');

  const main = responses.find((r) => /\/assets\/index-[^/]*\.js$/.test(r.url));
  expect(main?.headers['content-encoding']).toBe('br');
  expect(main?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  // A script carries the headers that apply to it, not the page's policies (app.ts, DOCUMENT_ONLY_HEADERS).
  expect(main?.headers['x-content-type-options']).toBe('nosniff');
  expect(main?.headers['cross-origin-resource-policy']).toBe('same-site');
  expect(main?.headers['content-security-policy']).toBeUndefined();
  const document = responses.find((r) => new URL(r.url).pathname === '/branches');
  expect(document?.headers['cache-control']).toBe('no-cache');
  expect(document?.headers['content-encoding']).toBe('br');
  expect(document?.headers['content-security-policy']).toContain("script-src 'self'");
  const page50 = responses.find((r) => r.url.includes('/v1/banks/branches') && r.url.includes('pageSize=50'));
  expect(page50?.headers['content-encoding']).toBe('br');
  expect(page50?.headers['cache-control']).toBe('no-store');
  console.log(
    `main script ${new URL(main!.url).pathname}: ${main!.headers['content-encoding']}, ${main!.headers['cache-control']}; 50-row page: ${page50!.headers['content-encoding']}`,
  );
});
