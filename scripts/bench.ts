import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { readSeedFiles } from '../src/server/seed/seed';
import { LOOKUP_HEADERS, runLoad, type LoadResult } from './lib/bench-http';
import { buildShapes, type Shape } from './lib/bench-shapes';
import { STORE_OPTIONS, storeChoice } from './lib/store-options';

// npm run bench -- [--seconds 3] [--connections 32] [--only regex] [--out docs/benchmarks/latest.md]
//   [--store sqlite|postgres] [--data-dir dir] [--database-url url]
// Drives the API (on the data set `npm run gen` loaded) with autocannon, shape by shape, and a bare node:http
// server answering a body of the same size as the machine's ceiling. Writes and prints a markdown table.

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
    out: { type: 'string', default: join('docs', 'benchmarks', 'latest.md') },
    ...STORE_OPTIONS,
  },
});

// The issue's targets (1M branches, 500k agents, SQLite, 32 connections).
const TARGET_P99_MS = 50;
const TARGET_TYPICAL_BRANCH_RPS = 3000;
const TARGET_REFERENCE_RATIO = 0.5;

/** Starts a script of scripts/lib in its own process; resolves with the port it listens on. */
function startChild(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(join(import.meta.dirname, 'lib', script), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** Bodies are compared with a ceiling of the same size, rounded up to a power of two (one ceiling run per size). */
const sizeBucket = (bytes: number) => 2 ** Math.ceil(Math.log2(Math.max(bytes, 256)));

interface Warmup { bytes: number; coldMs: number; problem?: string }

/** Requests each query of the shape once, before timing: checks the answers and notes the first-time cost. */
async function warmUp(base: string, shape: Shape): Promise<Warmup> {
  let bytes = 0;
  let coldMs = 0;
  for (const path of shape.paths) {
    const started = performance.now();
    const response = await fetch(base + path, { headers: { ...LOOKUP_HEADERS, ...shape.headers } });
    const body = await response.arrayBuffer();
    coldMs = Math.max(coldMs, performance.now() - started);
    bytes = Math.max(bytes, body.byteLength);
    if (response.status !== (shape.expectedStatus ?? 200)) return { bytes, coldMs, problem: `${path} answered ${response.status}` };
  }
  return { bytes, coldMs };
}

const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));

async function main() {
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const choice = storeChoice(values);
  const started = Date.now();
  const loadBefore = loadavg();

  const api = await startChild('bench-server.ts', { BENCH_STORE: JSON.stringify(choice) });
  const base = `http://127.0.0.1:${api.port}`;
  const children = [api.child];
  try {
    const status = (await (await fetch(`${base}/v1/data-status`, { headers: LOOKUP_HEADERS })).json()) as { data: { kind: string; rows: number }[] };
    const rowsOf = (kind: string) => status.data.filter((s) => s.kind === kind).reduce((n, s) => n + s.rows, 0);

    let shapes = await buildShapes(base, readSeedFiles());
    const etag = (await fetch(`${base}/v1/receiving-countries`, { headers: LOOKUP_HEADERS })).headers.get('etag');
    if (etag) {
      shapes.push({
        name: 'reference: receiving countries, If-None-Match',
        query: 'receiving-countries (304)',
        paths: ['/v1/receiving-countries'],
        headers: { 'if-none-match': etag },
        expectedStatus: 304,
      });
    }
    if (values.only) shapes = shapes.filter((s) => new RegExp(values.only!, 'i').test(s.name));

    const warmups = new Map<Shape, Warmup>();
    for (const shape of shapes) warmups.set(shape, await warmUp(base, shape));
    const buckets = [...new Set([...warmups.values()].map((w) => sizeBucket(w.bytes)))].sort((a, b) => a - b);
    const ceilingServer = await startChild('ceiling-server.ts', { BENCH_BODY_SIZES: buckets.join(',') });
    children.push(ceilingServer.child);

    // Each shape is followed at once by its ceiling run: on a shared machine the load of other work moves
    // from minute to minute, and the ratio should compare the two under the same load.
    const results = new Map<Shape, LoadResult>();
    const ceilings = new Map<Shape, LoadResult>();
    for (const shape of shapes) {
      process.stdout.write(`${shape.name} … `);
      const result = await runLoad({ url: base, paths: shape.paths, headers: shape.headers, expectedStatus: shape.expectedStatus, connections, seconds });
      results.set(shape, result);
      // Requests still queued in the API when the run stopped would otherwise eat into the next run.
      await fetch(`${base}/v1/types?filter=delivery-modes`, { headers: LOOKUP_HEADERS }).then((r) => r.arrayBuffer());
      const bytes = sizeBucket(warmups.get(shape)!.bytes);
      const ceiling = await runLoad({ url: `http://127.0.0.1:${ceilingServer.port}`, paths: [`/${bytes}`], connections, seconds });
      ceilings.set(shape, ceiling);
      console.log(`${result.requestsPerSecond.toFixed(0)} req/s, p99 ${ms(result.p99)} ms; ceiling (${bytes} B) ${ceiling.requestsPerSecond.toFixed(0)} req/s`);
    }
    api.child.disconnect();
    ceilingServer.child.disconnect();

    const lines = [
      `# Benchmark: latest run`,
      '',
      `- When: ${new Date(started).toISOString()}; store: ${choice.databaseUrl ? 'postgres' : 'sqlite'}; data set: ${rowsOf('branches').toLocaleString('en')} bank branches, ${rowsOf('agents').toLocaleString('en')} agents`,
      `- Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average before the run ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min), after ${loadavg().map((l) => l.toFixed(2)).join(' / ')}`,
      `- Load: autocannon, ${connections} connections, ${seconds} s per shape, API in its own process on 127.0.0.1; each shape rotates through its queries, each requested once before timing ("first ms": the slowest of those first requests, which fills the totals cache)`,
      `- Ceiling: a bare node:http server answering a fixed JSON body of the same size (rounded up to a power of two), same connections and duration, run right after each shape`,
      '',
      '| Shape | Query | Queries | req/s | p50 ms | p99 ms | Errors | Body B | Ceiling req/s | Ratio | First ms | Target |',
      '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    ];
    for (const shape of shapes) {
      const result = results.get(shape)!;
      const warmup = warmups.get(shape)!;
      const ceiling = ceilings.get(shape)!;
      const ratio = result.requestsPerSecond / ceiling.requestsPerSecond;
      const misses: string[] = [];
      if (warmup.problem) misses.push(warmup.problem);
      if (result.requests === 0) misses.push(`no answer within ${seconds} s`);
      if (result.p99 > TARGET_P99_MS) misses.push(`p99 ${ms(result.p99 - TARGET_P99_MS)} ms over ${TARGET_P99_MS}`);
      if (result.errors > 0) misses.push(`${result.errors} errors`);
      if (shape.name.startsWith('branches: typical') && result.requestsPerSecond < TARGET_TYPICAL_BRANCH_RPS) {
        misses.push(`${(TARGET_TYPICAL_BRANCH_RPS - result.requestsPerSecond).toFixed(0)} req/s under ${TARGET_TYPICAL_BRANCH_RPS}`);
      }
      if (shape.name.startsWith('reference') && ratio < TARGET_REFERENCE_RATIO) misses.push(`ratio under ${TARGET_REFERENCE_RATIO}`);
      lines.push(
        `| ${shape.name} | ${shape.query.replaceAll('|', '\\|')} | ${shape.paths.length} | ${result.requestsPerSecond.toFixed(0)} | ${ms(result.p50)} | ${ms(result.p99)} | ${result.errors} | ${warmup.bytes} | ${ceiling.requestsPerSecond.toFixed(0)} | ${ratio.toFixed(2)} | ${ms(warmup.coldMs)} | ${misses.length ? `missed: ${misses.join('; ')}` : 'met'} |`,
      );
    }
    lines.push('', `Whole run: ${((Date.now() - started) / 1000).toFixed(0)} s.`, '');
    const table = lines.join('\n');
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, table);
    console.log(`\n${table}\nWritten to ${values.out}`);
  } finally {
    for (const child of children) if (child.connected) child.disconnect();
  }
}

main().catch((error: Error) => {
  console.error(`bench failed: ${error.message}`);
  process.exit(1);
});
