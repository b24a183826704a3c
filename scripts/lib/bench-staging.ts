import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/server/app';
import { openStore } from '../../src/server/open-store';
import { DeskEngine } from '../../src/server/desk/engine';
import { hashApiKey } from '../../src/server/auth/credentials';
import type { OpsActor } from '../../src/server/desk/desk';
import { writeLargeBangladeshBranchFile } from '../../src/testing/large-branch-file';
import { WrkRelay, runLoad, type LoadResult } from './bench-http';

// The operations desk's shape of `npm run bench`: a 1,000,000-row Bangladesh branch file uploaded
// over the API (POST /v1/ops/changes, an ops key with the maker role) to a server that keeps answering lookups,
// timed from the upload's first byte until the change shows as staged (upload, validation and difference); then
// diff pages; then the approval, timed until the server's lookups answer from the new data. Lookups are driven by
// wrk (started through a small relay process, WrkRelay) in 5-second windows: idle, during staging, during
// publishing. Peak RSS is this process's: the server and its workers (the load generator is another process).

const TARGET_STAGE_SECONDS = 60;
const TARGET_PEAK_RSS_MB = 1536;
const TARGET_DIFF_P99_MS = 50;

/**
 * The lookups' pause between an answer and the next request, per connection (BENCH_LOOKUP_THINK_MS, default 4):
 * 8 connections then ask about 1,500 searches a second, ten times what 10,000 tellers searching once a minute
 * would, and leave the machine room to stage. 0: the closed loop at full speed, both cores saturated, where the
 * staging worker (nice 10) gets what the lookups leave.
 */
export const LOOKUP_THINK_MS = Number(process.env.BENCH_LOOKUP_THINK_MS ?? 4);
/** The lookups' connections while a change is staged (with LOOKUP_THINK_MS: a teller's day, at ten times its rate). */
export const LOOKUP_CONNECTIONS = 8;

/** BENCH_STAGING_UNTIL=diff: stop after the diff pages (no publishing), to measure the staging alone quickly. */
const UNTIL_DIFF = process.env.BENCH_STAGING_UNTIL === 'diff';

const checker: OpsActor = { name: 'bench-checker', roles: ['checker'], via: 'shell' };

interface Lookups {
  /** Each 5-second window's p99 (ms), in order. */
  windows: number[];
  p99: number;
  p50: number;
  requests: number;
  errors: number;
}

/**
 * wrk (its own process) against one lookup, in 5-second windows, until `stop()` (or `seconds`): p99 is the worst
 * window's, requests and errors the sum. (autocannon stopped by SIGINT wrote no result: the figures were lost.)
 */
function lookupLoad(url: string, seconds: number, relay: WrkRelay): { done: Promise<Lookups>; stop(): void } {
  let stopped = false;
  const { origin, pathname, search } = new URL(url);
  const done = (async () => {
    const windows: LoadResult[] = [];
    const started = Date.now();
    while (!stopped && Date.now() - started < seconds * 1000) {
      windows.push(
        await runLoad({
          url: origin,
          paths: [`${pathname}${search}`],
          headers: { 'x-fapi-financial-id': 'BENCH1' },
          connections: LOOKUP_CONNECTIONS,
          seconds: Math.min(5, seconds),
          threads: 1,
          thinkMs: LOOKUP_THINK_MS,
          relay,
        }),
      );
    }
    if (windows.length === 0) return { windows: [], p99: NaN, p50: NaN, requests: 0, errors: 0 };
    return {
      windows: windows.map((w) => w.p99),
      p99: Math.max(...windows.map((w) => w.p99)),
      p50: percentile(
        windows.map((w) => w.p50),
        50,
      ),
      requests: windows.reduce((n, w) => n + w.requests, 0),
      errors: windows.reduce((n, w) => n + w.errors, 0),
    };
  })();
  return {
    done,
    stop: () => {
      stopped = true;
    },
  };
}

/**
 * POST /v1/ops/changes (multipart, the file streamed from disk by curl, started through the relay: the client is
 * another process, as a browser or a nightly loader is, not the server's own event loop), then the change polled
 * until staged.
 */
async function uploadAndWait(origin: string, key: string, file: string, desk: DeskEngine, relay: WrkRelay) {
  const started = performance.now();
  const sent = await relay.run(
    [
      '-sS',
      '-w',
      '\\n%{http_code}',
      '-H',
      `authorization: Bearer ${key}`,
      '-F',
      'kind=branches',
      '-F',
      `file=@${file};filename=bd-1m.csv;type=text/csv`,
      `${origin}/v1/ops/changes`,
    ],
    {},
    'curl',
  );
  const body = sent.out.slice(0, sent.out.lastIndexOf('\n'));
  const status = sent.out.slice(sent.out.lastIndexOf('\n') + 1);
  if (sent.code !== 0 || status !== '202') throw new Error(`upload answered ${status}: ${body} ${sent.err}`);
  const { id } = JSON.parse(body) as { id: string };
  const uploadSeconds = (performance.now() - started) / 1000;
  for (;;) {
    const change = await desk.get(id);
    if (change.status !== 'validating') return { change, uploadSeconds };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

export async function runStagingBench(options: { rows: number; port: number; out: string }): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'rpl-bench-staging-'));
  // Started now, while this process is small: wrk is started from it, not from the server's process.
  const relay = new WrkRelay();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  // The server's event loop held up (this process is the server): each stall of 100 ms or more, by when.
  const runStarted = performance.now();
  const stalls: string[] = [];
  let tick = performance.now();
  /** The event loop's longest stall (ms) since the phase began: what wrk's windows miss between two windows. */
  let worstStall = 0;
  const stallWatch = setInterval(() => {
    const at = performance.now();
    worstStall = Math.max(worstStall, at - tick - 10);
    // With the monotonic time in µs (a CPU profile's clock: npm run profile:summary -- --window).
    if (at - tick > 110)
      stalls.push(
        `${((at - runStarted) / 1000).toFixed(1)} s: ${(at - tick - 10).toFixed(0)} ms (µs ${process.hrtime.bigint() / 1000n})`,
      );
    tick = at;
  }, 10);
  const mark = (what: string) => stalls.push(`${((performance.now() - runStarted) / 1000).toFixed(1)} s: ${what}`);
  const lines: string[] = [];
  const log = (line: string) => {
    console.error(line);
    lines.push(line);
  };
  try {
    const file = join(dir, 'bd-1m.csv');
    await writeLargeBangladeshBranchFile(file, options.rows, 'STAGED');
    log(`file: ${options.rows} rows, ${(statSync(file).size / 1e6).toFixed(0)} MB`);
    const store = await openStore({ dataDir: dir, log: () => {} });
    const stageHeapMb = Number(process.env.OPS_STAGE_HEAP_MB ?? 768);
    // The maker uploads through the API with an ops key (as a nightly loader would): upload, validation, diff.
    const makerKey = randomBytes(24).toString('hex');
    const app = await buildApp({
      store,
      searchIndexBuild: 'worker',
      uploads: { dir: join(dir, 'uploads') },
      desk: { stageHeapMb },
      ops: { apiKeys: new Map([[hashApiKey(makerKey), { holder: 'bench loader', roles: ['maker'] }]]) },
    });
    await app.listen({ port: options.port, host: '127.0.0.1' });
    await app.searchIndex.whenReady();
    const desk = new DeskEngine(store, { stageHeapMb });
    const lookup = `http://127.0.0.1:${options.port}/v1/banks/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=ICICIN&pageSize=50`;
    try {
      const idle = await lookupLoad(lookup, 10, relay).done;
      log(`lookups idle: p50 ${idle.p50} ms, p99 ${idle.p99} ms, ${idle.requests} requests, ${idle.errors} errors`);

      peakRss = process.memoryUsage().rss;
      log(`RSS before staging (the server with the real data served): ${(peakRss / 2 ** 20).toFixed(0)} MB`);
      const during = lookupLoad(lookup, 600, relay);
      worstStall = 0;
      const started = performance.now();
      mark('upload starts');
      const { change, uploadSeconds } = await uploadAndWait(
        `http://127.0.0.1:${options.port}`,
        makerKey,
        file,
        desk,
        relay,
      );
      const stageSeconds = (performance.now() - started) / 1000;
      mark('staged');
      during.stop();
      const staging = await during.done;
      log(
        `staged in ${stageSeconds.toFixed(1)} s (target ≤ ${TARGET_STAGE_SECONDS}; the upload's 202 after ${uploadSeconds.toFixed(1)} s): ${change.rows.valid} valid, ${change.problemCount} problems, ` +
          `diff ${JSON.stringify(change.diff?.counts)}; peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB (target ≤ ${TARGET_PEAK_RSS_MB})`,
      );
      log(
        `lookups while staging: p50 ${staging.p50} ms, p99 ${staging.p99} ms (windows of 5 s: ${staging.windows.map((w) => w.toFixed(0)).join(', ')}), ${staging.requests} requests, ${staging.errors} errors; the event loop's longest stall ${worstStall.toFixed(0)} ms`,
      );

      const timings: number[] = [];
      const filters = [
        {},
        { op: 'added' as const },
        { op: 'removed' as const },
        { country: 'BD' },
        { country: 'BD', bankCode: '020' },
      ];
      for (let i = 0; i < 500; i++) {
        const t = performance.now();
        await desk.diff(change.id, { ...filters[i % filters.length], pageNumber: 1 + (i % 50), pageSize: 50 });
        timings.push(performance.now() - t);
        // One page at a time, as a browser asks them (500 awaited in a row would settle in microtasks alone and
        // hold the event loop: a stall of the bench's own, not the server's).
        await new Promise((resolve) => setImmediate(resolve));
      }
      const diffP99 = percentile(timings, 99);
      const slowest = timings
        .map((ms, i) => ({ ms, i }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 6)
        .map(
          ({ ms, i }) => `${ms.toFixed(0)} ms (#${i}: ${JSON.stringify(filters[i % filters.length])} p${1 + (i % 50)})`,
        );
      log(`diff pages, the slowest: ${slowest.join(', ')}`);
      log(
        `diff pages (500, filters mixed, pages 1–50): p50 ${percentile(timings, 50).toFixed(1)} ms, p99 ${diffP99.toFixed(1)} ms (target ≤ ${TARGET_DIFF_P99_MS})`,
      );

      if (UNTIL_DIFF) {
        writeFileSync(options.out, `# Staging benchmark (staging only)\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`);
        return stageSeconds <= TARGET_STAGE_SECONDS && diffP99 <= TARGET_DIFF_P99_MS;
      }
      const publishing = lookupLoad(lookup, 600, relay);
      worstStall = 0;
      const publishStarted = performance.now();
      mark('approve');
      const servedBefore = app.searchIndex.index().version;
      await desk.approve(checker, change.id, { comment: 'bench', confirmRemovals: true });
      const approvedSeconds = (performance.now() - publishStarted) / 1000;
      mark('approval returned');
      // Published is when the lookups answer from the new data: the server's index rebuilt and swapped in.
      while (app.searchIndex.index().version === servedBefore) {
        if (performance.now() - publishStarted > 900_000)
          throw new Error(`the new index did not serve within 900 s (last error: ${app.searchIndex.lastError})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const publishSeconds = (performance.now() - publishStarted) / 1000;
      mark('new index serves');
      publishing.stop();
      const published = await publishing.done;
      log(
        `published in ${publishSeconds.toFixed(1)} s (the approval returned after ${approvedSeconds.toFixed(1)} s, then the server's index rebuilt and swapped in); lookups while publishing: p50 ${published.p50} ms, p99 ${published.p99} ms (windows: ${published.windows.map((w) => w.toFixed(0)).join(', ')}), ${published.requests} requests, ${published.errors} errors; the event loop's longest stall ${worstStall.toFixed(0)} ms`,
      );
      log(
        `peak RSS over the run: ${(peakRss / 2 ** 20).toFixed(0)} MB; machine: ${cpus().length} cores, load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      );
      const ok =
        stageSeconds <= TARGET_STAGE_SECONDS &&
        peakRss / 2 ** 20 <= TARGET_PEAK_RSS_MB &&
        diffP99 <= TARGET_DIFF_P99_MS;
      writeFileSync(
        options.out,
        `# Staging benchmark (npm run bench -- --staging)\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`,
      );
      return ok;
    } finally {
      await desk.close();
      await app.close();
      await store.close();
    }
  } finally {
    clearInterval(stallWatch);
    if (process.env.BENCH_STALLS) console.error(`event loop: ${stalls.join('; ')}`);
    clearInterval(sampler);
    relay.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
