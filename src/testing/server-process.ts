import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { SQLITE_FILE_NAME } from '../server/open-store';

// The real server as a separate process: the compiled program `npm start` runs (node dist/server/main.js, built
// by build-setup.ts; one process, so its pid is the server's own for signals and memory), on 127.0.0.1 and an
// ephemeral port.

/** The compiled server, as `npm start` runs it. */
export const COMPILED_SERVER = join('dist', 'server', 'main.js');

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port>, once listening. */
  url: string;
  output(): string;
  /** The whole output file (the server writes its log there). */
  logFile: string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  dataDir: string;
  /** Sends SIGTERM (if still running), waits for the exit, removes the data folder. */
  stop(): Promise<void>;
}

/** A temp DATA_DIR holding a copy of the run's seeded database (see global-setup.ts). */
export function seededDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'rpl-proc-'));
  copyFileSync(inject('seededSqliteFile'), join(dataDir, SQLITE_FILE_NAME));
  return dataDir;
}

/** Starts the server; resolves once it listens, or with `url` empty once it exited without listening. */
export async function startServer(
  env: Record<string, string>,
  dataDir = seededDataDir(),
  timeoutMs = 60_000,
  /** Node's own options for the server process (e.g. --trace-gc, which NODE_OPTIONS does not take). */
  nodeOptions: string[] = [],
): Promise<ServerProcess> {
  // Output goes to a file, as a deployed server's would: the test process then never throttles the server
  // by reading its log (a soak writes one audit line per request).
  const logFile = join(dataDir, 'server.log');
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeOptions, COMPILED_SERVER], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      PORTAL_DIR: join(dataDir, 'no-portal'),
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  // The start-up messages and errors: the last 64 KB of the output.
  const text = () => {
    try {
      return readFileSync(logFile, 'latin1').slice(-65_536);
    } catch {
      return '';
    }
  };
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  // Never leave a server behind when the test process ends early (timeout, interrupt).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  let ended = false;
  void exited.then(() => (ended = true));
  let url = '';
  for (const started = Date.now(); !url; await new Promise((resolve) => setTimeout(resolve, 100))) {
    url = /serving on (http:\/\/127\.0\.0\.1:\d+)\//.exec(text())?.[1] ?? '';
    if (url) break;
    if (ended) break;
    if (Date.now() - started > timeoutMs) throw new Error(`server did not start within ${timeoutMs} ms:\n${text()}`);
  }
  if (!url) await exited;
  // Lookups are answered once the search index is built (/readyz 200); a test of start-up itself sees both.
  for (const started = Date.now(); url && !ended; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() - started > timeoutMs) throw new Error(`server was not ready within ${timeoutMs} ms:\n${text()}`);
  }
  return {
    child,
    url,
    output: text,
    logFile,
    exited,
    dataDir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident set size of a process, in bytes (Linux /proc). */
export function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) * 1024;
}
