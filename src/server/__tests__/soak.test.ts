import autocannon from 'autocannon';
import { expect, it } from 'vitest';
import { LOOKUP_HEADERS } from '../../testing/test-app';
import { residentBytes, startServer } from '../../testing/server-process';

// Soak: 100,000 requests at concurrency 64 on loopback against the real server process, with audit
// logging on as in production and the rate limiter off (RATE_LIMIT_MAX=0). Zero errors, zero non-2xx, and
// the server's resident memory grows by less than 50 MB from the first 10,000 requests to the last.

// SOAK_REQUESTS only shortens a local diagnosis run; the suite's figure is 100,000. The time limit is
// generous because the run's length depends on the machine (on a busy shared one, tens of minutes).
const TOTAL = Number(process.env.SOAK_REQUESTS ?? 100_000);
const WARM_UP = Math.round(TOTAL / 10);
const CONCURRENCY = 64;
const MAX_GROWTH_BYTES = 50 * 1024 * 1024;

// A teller's day in miniature: reference lists, agent searches and pages, payout networks, bank branches.
const MIXED_REQUESTS = [
  '/v1/receiving-countries',
  '/v1/types?filter=delivery-modes',
  '/v1/states?receivingCountry=IN',
  '/v1/agents?receivingCountry=MX&deliveryMode=1&pageSize=20',
  '/v1/agents?receivingCountry=PH&deliveryMode=1&search=Cebu&pageNumber=2&pageSize=10',
  '/v1/payout-networks?receivingCountry=BD&deliveryMode=4',
  '/v1/banks/branches?receivingCountry=BD&deliveryMode=4&receivingAgentHeadOfficeCode=BRACBD&pageSize=25',
  '/v1/banks/branches?receivingCountry=IN&deliveryMode=4&receivingAgentHeadOfficeCode=ICICIN&bankName=Bank&pageSize=50',
  '/v1/cities?receivingCountry=IN&state=MH',
].map((path) => ({ method: 'GET' as const, path, headers: LOOKUP_HEADERS }));

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

it(`serves ${TOTAL} mixed requests at concurrency ${CONCURRENCY} without errors or memory growth`, async () => {
  const server = await startServer({ LOG_LEVEL: 'info' });
  try {
    const pid = server.child.pid!;
    // Every request of the mix must answer 200 on its own first, or the soak would measure errors.
    for (const { path } of MIXED_REQUESTS)
      expect((await fetch(server.url + path, { headers: LOOKUP_HEADERS })).status, path).toBe(200);

    const startRss = residentBytes(pid);
    let answered = 0;
    let afterWarmUpRss = 0;
    let peakRss = 0;
    let finish: (result: autocannon.Result) => void = () => {};
    let fail: (error: Error) => void = () => {};
    const done = new Promise<autocannon.Result>((resolve, reject) => ((finish = resolve), (fail = reject)));
    const run = autocannon(
      { url: server.url, connections: CONCURRENCY, amount: TOTAL, requests: MIXED_REQUESTS, timeout: 30 },
      (error, result) => (error ? fail(error) : finish(result)),
    );
    run.on('response', () => {
      answered++;
      if (answered === WARM_UP) afterWarmUpRss = residentBytes(pid);
      if (answered % 10_000 === 0) console.log(`soak: ${answered} answered`);
      if (answered % 5_000 === 0) peakRss = Math.max(peakRss, residentBytes(pid));
    });
    const result = await done;
    const endRss = residentBytes(pid);
    const growth = endRss - afterWarmUpRss;
    console.log(
      `soak: ${result.requests.total} requests in ${result.duration.toFixed(1)} s (${Math.round(result.requests.average)} req/s), ` +
        `latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms; 2xx ${result['2xx']}, non-2xx ${result.non2xx}, ` +
        `errors ${result.errors}, timeouts ${result.timeouts}; server RSS at start ${mb(startRss)} MB, after ${WARM_UP} ${mb(afterWarmUpRss)} MB, ` +
        `peak ${mb(Math.max(peakRss, endRss))} MB, end ${mb(endRss)} MB, growth ${mb(growth)} MB`,
    );
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result['2xx']).toBeGreaterThanOrEqual(TOTAL);
    expect(afterWarmUpRss).toBeGreaterThan(0);
    expect(growth).toBeLessThan(MAX_GROWTH_BYTES);
  } finally {
    await server.stop();
  }
}, 2_700_000);
