import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { BACKGROUND_NICE } from '../../src/server/worker-thread';
import { LOOKUP_HEADERS, runLoad, type LoadResult } from './bench-http';
import type { Choice } from './bench-server';
import { StallSampler, type StallWindow } from './stall-sampler';

export interface ReplaceResult {
  importMs: number;
  windows: LoadResult[];
  /** Data versions in the order the probe saw them, with how many answers each. */
  versions: { version: string; answers: number; bodies: number }[];
  atomic: boolean;
  sameAnswers: boolean;
  p99: number;
  errors: number;
  requestsPerSecond: number;
  /** Per window, what the server's side saw (lib/stall-sampler.ts), and its start (ms after the import's). */
  stalls: (StallWindow & { startMs: number })[];
  /**
   * When (ms after the import's spawn) it began to read the data set (Node, the TypeScript loader and opening the
   * store before it), began to write it, had written it, and when the probe first got the new version.
   */
  phases: { readFromMs: number; writeFromMs: number; writtenMs: number; servedMs: number };
}

/**
 * An import during load: scripts/lib/reimport.ts replaces the served data set with itself through
 * store.replaceDataSet (a new data version, the same answers)
 * while wrk drives the distinct branch searches in 5 s windows and a probe asks one search in a loop. The
 * server keeps answering from the old index while the new one is built, then swaps it in: the probe checks
 * that the versions move once, never back, and that every version has one answer.
 */
export async function replaceUnderLoad(
  base: string,
  paths: string[],
  connections: number,
  choice: Choice,
  store: string,
  serverPid: number,
): Promise<ReplaceResult> {
  const probePath = paths[0];
  let servedAt = 0;
  const versions: { version: string; answers: number; bodies: Set<string> }[] = [];
  let probing = true;
  let importDoneAt = 0;
  const probe = (async () => {
    while (probing) {
      const response = await fetch(base + probePath, { headers: LOOKUP_HEADERS }).catch(() => null);
      if (!response) continue;
      const body = createHash('sha1')
        .update(Buffer.from(await response.arrayBuffer()))
        .digest('hex');
      const version = `${response.status} ${response.headers.get('x-data-version')}`;
      const last = versions.at(-1);
      if (last && last.version !== version && !servedAt) servedAt = Date.now();
      if (last?.version === version) {
        last.answers++;
        last.bodies.add(body);
      } else versions.push({ version, answers: 1, bodies: new Set([body]) });
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const sampler = new StallSampler(serverPid, base);
  await sampler.start();
  const started = Date.now();
  // Started at nice 10 from its first instruction, TypeScript loader included: reimport.ts yields the CPU itself
  // (as the import command does), but only once tsx has compiled the store's code, and that compile (esbuild, at
  // the priority it was started with) held the lookups' first window of the replace at p99 89–324 ms.
  const gen = spawn(
    'nice',
    [
      '-n',
      String(BACKGROUND_NICE),
      process.execPath,
      '--import',
      'tsx',
      join('scripts', 'lib', 'reimport.ts'),
      '--store',
      store,
      '--data-dir',
      choice.dataDir,
      ...(choice.databaseUrl ? ['--database-url', choice.databaseUrl] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let genOutput = '';
  gen.stdout!.on('data', (chunk: Buffer) => (genOutput += chunk.toString()));
  const windowStarts: number[] = [];
  const genExit = new Promise<number>((resolve) => gen.once('exit', (code) => resolve(code ?? 1)));
  void genExit.then(() => (importDoneAt = Date.now()));
  const windows: LoadResult[] = [];
  const startVersion = (await fetch(base + probePath, { headers: LOOKUP_HEADERS })).headers.get('x-data-version');
  // Load until the import is done, the new version is served, and 5 s more.
  for (;;) {
    windowStarts.push(Date.now());
    windows.push(await runLoad({ url: base, paths, connections, seconds: 5 }));
    const served = versions.at(-1)?.version;
    if (importDoneAt && served !== `200 ${startVersion}` && Date.now() - importDoneAt > 5000) break;
    // A bound, not a target: an import that yields to the lookups on a slow machine took 508 s under this load,
    // and the new index then builds at the same low priority (250–400 s), so 15 minutes cut the swap off.
    if (Date.now() - started > 1_800_000) break;
  }
  probing = false;
  await probe;
  sampler.stop();
  const stalls = windowStarts.map((at, i) => ({
    ...sampler.window(at, windowStarts[i + 1] ?? Date.now()),
    startMs: at - started,
  }));
  const code = await genExit;
  // reimport.ts prints {"readMs", "replaceMs"} once done.
  const { readMs = NaN, replaceMs = NaN } = JSON.parse(/^\{.*\}$/m.exec(genOutput)?.[0] ?? '{}') as {
    readMs?: number;
    replaceMs?: number;
  };
  if (code !== 0) throw new Error(`the import under load (reimport.ts) exited with ${code}`);
  const seen = versions.map((v) => v.version);
  const numbers = seen.map((v) => Number(v.split(' ')[1]));
  const atomic =
    seen.every((v) => v.startsWith('200 ')) &&
    new Set(seen).size === seen.length &&
    numbers.every((n, i) => i === 0 || n > numbers[i - 1]) &&
    versions.every((v) => v.bodies.size === 1);
  const bodies = new Set(versions.flatMap((v) => [...v.bodies]));
  const total = windows.reduce((sum, w) => sum + w.requests, 0);
  return {
    importMs: importDoneAt - started,
    windows,
    versions: versions.map((v) => ({ version: v.version, answers: v.answers, bodies: v.bodies.size })),
    atomic,
    sameAnswers: bodies.size === 1,
    p99: Math.max(...windows.map((w) => w.p99)),
    errors: windows.reduce((sum, w) => sum + w.errors, 0),
    requestsPerSecond: total / windows.reduce((sum, w) => sum + w.requests / w.requestsPerSecond, 0),
    stalls,
    phases: {
      readFromMs: importDoneAt - started - replaceMs - readMs,
      writeFromMs: importDoneAt - started - replaceMs,
      writtenMs: importDoneAt - started,
      servedMs: servedAt ? servedAt - started : NaN,
    },
  };
}
