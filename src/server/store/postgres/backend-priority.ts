import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import type pg from 'pg';

// A background thread's PostgreSQL backend yields the CPU with it: its priority, its session's, and no parallel
// workers (the pool's `connect` and its connection options, PgStore.open).

/** A connection to a database on this machine: a loopback address, or a Unix socket (a path). */
export function isLocalDatabase(host: string | undefined): boolean {
  if (!host || host.startsWith('/')) return true;
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Background work yields the CPU to the lookups (worker-thread.ts, yieldToLookups: nice 10 for the import
 * command, the index build, the desk's staging and publishing). With PostgreSQL most of an import's work runs
 * in the database backend, not in the thread that asked for it: a backend on this machine gets the priority of
 * the thread whose connection it serves (the pool's `connect`, before that thread's first query). Only threads
 * that lowered their priority change anything (the server's own pool keeps its backends as they are), and only
 * where this process may (root, or the database's own user); elsewhere, or with the database on another
 * machine, nothing changes. Measured: lookups' p99 during a 1M-row replace with PostgreSQL on the same 2 cores
 * (docs/benchmarks).
 */
export function backendYieldsWithThisThread(client: pg.PoolClient): void {
  const nice = threadNice();
  // The backend's process id, as the server sent it at the start of the session (BackendKeyData).
  const { processID, host } = client as unknown as { processID?: number; host?: string };
  if (nice <= 0 || !processID || !isLocalDatabase(host)) return;
  try {
    setPriority(processID, nice);
  } catch {
    // not permitted here: the backend keeps its priority
    return;
  }
  sessionYields(processID, nice);
}

/** This thread's nice value (worker-thread.ts yieldToLookups lowers it); 0 when it cannot be read. */
function threadNice(): number {
  try {
    return getPriority();
  } catch {
    return 0;
  }
}

/**
 * The session settings of a background thread's connections to a database on this machine: no parallel workers.
 * A parallel worker is a backend of its own, started by the postmaster at its priority and in a session of its
 * own, so it would not yield with the backend it helps (an import's index builds then ran at full priority, and
 * the replace under load's p99 rose for the seconds they ran). So such a backend works alone (an import's index
 * builds take longer; the lookups keep the CPU). Sent at connection start (`options`).
 */
export function backgroundSessionOptions(connectionString: string): string | undefined {
  let host: string | undefined;
  try {
    const url = new URL(connectionString);
    host = url.searchParams.get('host') ?? decodeURIComponent(url.hostname);
  } catch {
    return undefined; // not a URL (key=value form): left as it is
  }
  if (threadNice() <= 0 || !isLocalDatabase(host)) return undefined;
  return '-c max_parallel_maintenance_workers=0 -c max_parallel_workers_per_gather=0';
}

/**
 * With the kernel's autogroup scheduling on (/proc/sys/kernel/sched_autogroup_enabled; Linux's default in many
 * distributions, on this machine too), CPU time is shared between sessions first, and a nice value counts only
 * against the other processes of its own session. PostgreSQL starts every backend in a session of its own
 * (setsid), so the backend's nice value alone changed nothing against the server's threads: measured, its writes
 * during a replace still took half the CPU (the serving threads waited for one 50 % of the time instead of 33 %).
 * The backend's session therefore gets the same nice value, when the backend is the only process in it (a session
 * shared with anything else is left alone). Not permitted, or no autogroups: nothing changes.
 */
function sessionYields(pid: number, nice: number): void {
  try {
    const group = readFileSync(`/proc/${pid}/autogroup`, 'utf8').split(' ')[0];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === pid) continue;
      let other: string;
      try {
        other = readFileSync(`/proc/${entry}/autogroup`, 'utf8').split(' ')[0];
      } catch {
        continue; // gone meanwhile, or not ours to read
      }
      if (other === group) return;
    }
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // no autogroups here, or not permitted: the session keeps its share
  }
}
