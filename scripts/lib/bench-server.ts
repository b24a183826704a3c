import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '../../src/server/config';

// The bench's processes: the compiled server as `npm start` runs it (timed from spawn to /readyz 200), the
// resident memory of it and everything under it, and the scripts of scripts/lib it starts in their own process.

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  port: number;
  startupMs: number;
  indexLog: Record<string, unknown> | null;
  /** Resident memory (MiB) at its highest from spawn to /readyz 200, sampled at every poll. */
  startPeakMiB: number;
  /** The serving threads it runs (SERVING_THREADS as given, else the server's default). */
  threads: number;
}

export interface Choice {
  dataDir: string;
  databaseUrl?: string;
}

/**
 * The server as `npm start` runs it: compiled JavaScript (esbuild, dist/server), no TypeScript loader in the
 * process (tsx's transform cache and its esbuild child would count in the memory and the start-up).
 */
const SERVER_ENTRY = join('dist', 'server', 'main.js');

/**
 * The environment and Node options `npm start` starts the server with (package.json's start script, after its
 * last `&&`: `NAME=value … node <options> dist/server/main.js`), so the bench measures the same process.
 */
function startCommand(): { env: Record<string, string>; nodeOptions: string[] } {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = start.split('&&').at(-1)!.trim().split(/\s+/);
  const node = words.indexOf('node');
  const entry = words.indexOf('dist/server/main.js');
  if (node < 0 || entry < node)
    throw new Error(`package.json's start script is not "… node … dist/server/main.js": ${start}`);
  const env = Object.fromEntries(words.slice(0, node).map((word) => word.split('=', 2) as [string, string]));
  return { env, nodeOptions: words.slice(node + 1, entry) };
}

const START_COMMAND = startCommand();
export const startCommandText = () =>
  [
    ...Object.entries(START_COMMAND.env).map(([name, value]) => `${name}=${value}`),
    'node',
    ...START_COMMAND.nodeOptions,
  ].join(' ');

export function buildServer(): void {
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build:server exited with ${build.status}`);
}

/**
 * The real server, as `npm start` runs it (without the portal), timed from spawn to /readyz 200; with `cpuProfDir`
 * under node --cpu-prof (the profile is written there when it stops).
 */
export async function startServer(
  choice: Choice,
  seed: boolean,
  logLevel: string,
  threads?: string,
  cpuProfDir?: string,
): Promise<Server> {
  const port = await freePort();
  const started = Date.now();
  const cpuProf = cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : [];
  const env = {
    ...process.env,
    ...START_COMMAND.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: choice.dataDir,
    ...(choice.databaseUrl ? { DATABASE_URL: choice.databaseUrl } : {}),
    SEED_ON_START: String(seed),
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: logLevel,
    PORTAL_DIR: join(choice.dataDir, 'no-portal'),
    ...(threads === undefined ? {} : { SERVING_THREADS: threads }),
  };
  const child = spawn(process.execPath, [...cpuProf, ...START_COMMAND.nodeOptions, SERVER_ENTRY], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.resume();
  let indexLog: Record<string, unknown>;
  let startPeakMiB = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    startPeakMiB = Math.max(startPeakMiB, residentMiB(child.pid!));
    if (Date.now() - started > 600_000) throw new Error('the server was not ready within 10 minutes');
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      async (r) => (r.status === 200 ? ((await r.json()) as { searchIndex: Record<string, unknown> }) : null),
      () => null,
    );
    if (ready) {
      indexLog = ready.searchIndex;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  // The number the server runs: its own configuration read from the same environment.
  const { SERVING_THREADS } = loadConfig(env);
  return { child, port, startupMs: Date.now() - started, indexLog, startPeakMiB, threads: SERVING_THREADS };
}

/** Resident memory of a process and all its descendants, in MiB. */
export function residentMiB(pid: number): number {
  const kib = (p: number) => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  const childrenOf = (p: number): number[] => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i]));
  return all.reduce((sum, p) => sum + kib(p), 0) / 1024;
}

/** Samples the server's resident memory every 100 ms: the peak since the last reset, and over the whole run. */
export class RssSampler {
  peak = 0;
  overall = 0;
  private timer: NodeJS.Timeout;
  constructor(pid: number) {
    const sample = () => {
      const now = residentMiB(pid);
      this.peak = Math.max(this.peak, now);
      this.overall = Math.max(this.overall, now);
    };
    sample();
    this.timer = setInterval(sample, 100);
  }
  reset(): void {
    this.peak = 0;
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

/** Starts a script of scripts/lib in its own process; resolves with the port it listens on. */
export function startChild(
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(join(import.meta.dirname, script), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}
