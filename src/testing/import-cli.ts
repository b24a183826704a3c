import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import { SQLITE_FILE_NAME } from '../server/open-store';
import { SERVED_TABLES } from '../server/store/store';

// The import, export and ops-user commands as operators run them: real child processes on a real store.

export const REPO_ROOT = join(import.meta.dirname, '..', '..');

export interface DataDir {
  dir: string;
  file: string;
  remove(): void;
}

/** A private DATA_DIR holding a copy of the seeded store (see global-setup.ts). */
export function seededDataDir(): DataDir {
  const dir = mkdtempSync(join(tmpdir(), 'rpl-import-'));
  const file = join(dir, SQLITE_FILE_NAME);
  copyFileSync(inject('seededSqliteFile'), file);
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** A PostgreSQL store instead of DATA_DIR's SQLite file. */
  databaseUrl?: string;
  /** Written to the command's standard input (closed after it); none: no standard input. */
  input?: string;
}

/** Starts the compiled command (dist/server/<script>.js, as deployed) with DATA_DIR set; the caller waits or kills. */
export function startCli(
  script: 'import' | 'export' | 'ops-user',
  args: string[],
  dataDir: string,
  options: CliOptions = {},
): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [join('dist', 'server', `${script}.js`), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: options.databaseUrl ?? '' },
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<CliRun>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

export const runCli = (
  script: 'import' | 'export' | 'ops-user',
  args: string[],
  dataDir: string,
  options: CliOptions = {},
) => startCli(script, args, dataDir, options).done;

export interface ReportedProblem {
  line: number | null;
  column: string | null;
  reason: string;
}

/** The problem lines of an import report: `file:line column: reason`. */
export function reportedProblems(stdout: string, file: string): ReportedProblem[] {
  const prefix = `${file}:`;
  return stdout
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => {
      const match = /^[^:]+:(\d+|-) (\S+): (.*)$/.exec(line)!;
      return {
        line: match[1] === '-' ? null : Number(match[1]),
        column: match[2] === '(row)' ? null : match[2],
        reason: match[3],
      };
    });
}

/** Row counts of every served table and one SHA-256 over all their rows in a fixed order. */
export function servedChecksum(file: string): { counts: Record<string, number>; sha256: string; integrity: string } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const hash = createHash('sha256');
    const counts: Record<string, number> = {};
    for (const table of SERVED_TABLES) {
      const columns = (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name).join(', ');
      const rows = db.prepare(`SELECT * FROM ${table} ORDER BY ${columns}`).raw().all();
      counts[table] = rows.length;
      for (const row of rows) hash.update(JSON.stringify(row)).update('\n');
    }
    return { counts, sha256: hash.digest('hex'), integrity: db.pragma('integrity_check', { simple: true }) as string };
  } finally {
    db.close();
  }
}
