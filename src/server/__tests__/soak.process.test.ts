import autocannon from 'autocannon';
import { expect, it } from 'vitest';
import WebSocket from 'ws';
import { LOOKUP_HEADERS } from '../../testing/test-app';
import { residentBytes, startServer } from '../../testing/server-process';

// Soak: 100,000 requests at concurrency 64 on loopback against the real server process, with audit
// logging on as in production and the rate limiter off (RATE_LIMIT_MAX=0). Zero errors, zero non-2xx, and no
// memory growth: what the heap keeps after a full garbage collection does not climb from the first half of the
// run to the second, and resident memory stays bounded.
//
// Why not "resident memory at the end minus after the warm-up": a healthy server's resident memory is a saw
// (V8 lets garbage pile up, then frees it). Sampled every 40,000 requests over 400,000 it went 397, 348, 356,
// 517, 457, 424, 360, 361, 525, 480 MB with no trend. Two single readings land anywhere on the saw.
//
// Why the test forces the collections (over the inspector, HeapProfiler.collectGarbage) rather than waiting
// for V8's own: the request path leaves little garbage in the old generation since the server turned allocation-
// site pretenuring off (src/server/v8-flags.ts), so a run saw only 2 full collections in a half, too few to
// judge by (CI failed on it). A forced collection at fixed points of the run says what is really kept.

// SOAK_REQUESTS only shortens a local diagnosis run; the suite's figure is 100,000. The time limit is
// generous because the run's length depends on the machine (on a busy shared one, tens of minutes).
const TOTAL = Number(process.env.SOAK_REQUESTS ?? 100_000);
const WARM_UP = Math.round(TOTAL / 10);
/** A forced full collection every this many answers past the warm-up: 8 readings (20,000 … 90,000). */
const CHECKPOINT = WARM_UP;
const CONCURRENCY = 64;
/**
 * The heap kept after a forced full collection may rise this much from the first half of the readings to the
 * second (MB). Healthy runs read 78.2, 78.4, 77.3, 77.6, 77.6, 77.8, 78.0, 77.9 MB (growth −0.3) and 78.8 … 82.0 MB
 * (1.8, a clean clone's CI run). With a module preloaded into the server that kept ~250 bytes of every request it
 * read 84.2 … 105.1 MB (growth 11.7: fails); keeping ~3 kB per request ran the server past its heap cap (the run
 * fails as soon as the server ends).
 */
const MAX_KEPT_GROWTH_MB = 8;
/** Resident memory may not go past this (MB): the heap cap plus the documents, string tables and Node itself. */
const MAX_RSS_MB = 600;
/** The server's heap cap, as a deployment caps it: a leak of 1 kB per request would also end the server. */
const HEAP_CAP_MB = 192;

/** A Chrome DevTools Protocol session with the server process (node --inspect=127.0.0.1:0). */
async function inspectorSession(url: string) {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  let next = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  // The server gone (a leak past the heap cap ends it): every reading still waiting fails the test.
  socket.once('close', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('the inspector session closed'));
    pending.clear();
  });
  return {
    send<T>(method: string, params: object = {}): Promise<T> {
      const id = ++next;
      socket.send(JSON.stringify({ id, method, params }));
      if (socket.readyState !== WebSocket.OPEN) return Promise.reject(new Error('the inspector session closed'));
      return new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    },
    /** Closes the session: a process with a session attached waits for it to go before it exits. */
    close: () =>
      socket.readyState === WebSocket.CLOSED
        ? Promise.resolve()
        : new Promise<void>((resolve) => (socket.once('close', () => resolve()), socket.close())),
  };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? NaN;

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
  const server = await startServer({ LOG_LEVEL: 'info' }, undefined, undefined, [
    '--inspect=127.0.0.1:0',
    `--max-old-space-size=${HEAP_CAP_MB}`,
  ]);
  const inspectorUrl = /Debugger listening on (ws:\/\/\S+)/.exec(server.output())?.[1];
  expect(inspectorUrl, server.output()).toBeTruthy();
  const inspector = await inspectorSession(inspectorUrl!);
  /** The heap the server keeps: a full collection, then what is left (MB). */
  const keptHeap = async () => {
    await inspector.send('HeapProfiler.collectGarbage');
    const { usedSize } = await inspector.send<{ usedSize: number }>('Runtime.getHeapUsage');
    return usedSize / 1024 / 1024;
  };
  try {
    const pid = server.child.pid!;
    // Every request of the mix must answer 200 on its own first, or the soak would measure errors.
    for (const { path } of MIXED_REQUESTS)
      expect((await fetch(server.url + path, { headers: LOOKUP_HEADERS })).status, path).toBe(200);

    const startRss = residentBytes(pid);
    let answered = 0;
    let afterWarmUpRss = 0;
    let peakRss = 0;
    // Readings taken while the load goes on (64 requests in flight each time); in order of the run.
    const readings: Promise<number>[] = [];
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
      if (answered > WARM_UP && answered < TOTAL && answered % CHECKPOINT === 0) readings.push(keptHeap());
      if (answered % 10_000 === 0) console.log(`soak: ${answered} answered`);
      if (answered % 5_000 === 0) peakRss = Math.max(peakRss, residentBytes(pid));
    });
    // A server that dies mid-run (past its heap cap) ends the run at once, as a failure.
    const result = await Promise.race([
      done,
      server.exited.then((code) => {
        run.stop();
        throw new Error(`the server ended during the run (${code}):\n${server.output().slice(-4000)}`);
      }),
    ]);
    const endRss = residentBytes(pid);
    const kept = await Promise.all(readings);
    const firstHalf = kept.slice(0, Math.floor(kept.length / 2));
    const secondHalf = kept.slice(Math.ceil(kept.length / 2));
    const growth = median(secondHalf) - median(firstHalf);
    console.log(
      `soak: ${result.requests.total} requests in ${result.duration.toFixed(1)} s (${Math.round(result.requests.average)} req/s), ` +
        `latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms; 2xx ${result['2xx']}, non-2xx ${result.non2xx}, ` +
        `errors ${result.errors}, timeouts ${result.timeouts}; server RSS at start ${mb(startRss)} MB, after ${WARM_UP} ${mb(afterWarmUpRss)} MB, ` +
        `peak ${mb(Math.max(peakRss, endRss))} MB, end ${mb(endRss)} MB; heap kept after forced full collections: ` +
        `${kept.map((value) => value.toFixed(1)).join(', ')} MB (growth ${growth.toFixed(1)} MB)`,
    );
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result['2xx']).toBeGreaterThanOrEqual(TOTAL);
    expect(afterWarmUpRss).toBeGreaterThan(0);
    expect(kept).toHaveLength(Math.ceil((TOTAL - WARM_UP) / CHECKPOINT) - 1);
    expect(growth).toBeLessThan(MAX_KEPT_GROWTH_MB);
    expect(Math.max(peakRss, endRss) / 1024 / 1024).toBeLessThan(MAX_RSS_MB);
  } finally {
    await inspector.close();
    await server.stop();
  }
}, 2_700_000);
