import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalDatabase } from '../backend-priority';
import { startWorker } from '../../../worker-thread';
import { createTestPostgresDatabase, testEngines } from '../../../../testing/test-app';

// Background work yields the CPU to the lookups; with PostgreSQL on the same machine its backend does most of an
// import's work, so the backend serving a background thread runs at that thread's priority (backend-priority.ts).

/** The nice value of a process's session's autogroup (/proc/<pid>/autogroup: "/autogroup-N nice M"); null: none. */
function autogroupNiceOf(pid: number): number | null {
  if (!existsSync(`/proc/${pid}/autogroup`)) return null;
  return Number(readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim().split(' ').at(-1));
}

/** The nice value of a process, from /proc/<pid>/stat (field 19; the name in field 2 may hold spaces). */
function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe('isLocalDatabase', () => {
  it('is a loopback address, localhost or a Unix socket, and nothing else', () => {
    for (const host of [undefined, '', '/var/run/postgresql', 'localhost', '127.0.0.1', '127.1.2.3', '::1'])
      expect(isLocalDatabase(host), String(host)).toBe(true);
    for (const host of ['db.internal', '10.0.0.5', '192.168.1.2', '128.0.0.1', 'localhost.example.com'])
      expect(isLocalDatabase(host), host).toBe(false);
  });
});

// Reading another user's /proc/<pid>/stat and renicing their process wants root (as CI runs) or that user.
describe.skipIf(!testEngines().includes('postgres') || process.getuid?.() !== 0)(
  'the PostgreSQL backend of a background thread',
  () => {
    let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
    let admin: pg.Client;

    beforeAll(async () => {
      database = await createTestPostgresDatabase();
      admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.end();
      await database?.drop();
    });

    /** Connects from a worker thread; the nice value of its backend (and its session's autogroup) while connected. */
    async function backendNice(background: boolean): Promise<number> {
      return (await backendPriority(background)).nice;
    }

    async function backendPriority(
      background: boolean,
    ): Promise<{ nice: number; autogroup: number | null; parallel: { maintenance: string; gather: string } }> {
      const worker = startWorker(new URL('../../../../testing/pg-connection-worker.js', import.meta.url), {
        connectionString: database.url,
        background,
      });
      try {
        const [message] = (await once(worker, 'message')) as [
          { connected: boolean; parallelMaintenanceWorkers: string; parallelWorkersPerGather: string },
        ];
        expect(message.connected).toBe(true);
        const { rows } = await admin.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        expect(rows).toHaveLength(1);
        const priority = {
          nice: niceOf(rows[0].pid),
          autogroup: autogroupNiceOf(rows[0].pid),
          parallel: { maintenance: message.parallelMaintenanceWorkers, gather: message.parallelWorkersPerGather },
        };
        worker.postMessage('close');
        await once(worker, 'message');
        return priority;
      } finally {
        await worker.terminate();
      }
    }

    it('runs at the priority the thread yielded to (nice 10)', async () => {
      expect(await backendNice(true)).toBe(10);
    });

    // PostgreSQL starts each backend in a session of its own; with autogroups on, the session's nice value is what
    // weighs against the server's threads.
    it.skipIf(!existsSync('/proc/self/autogroup'))('and so does its session, alone in its autogroup', async () => {
      expect((await backendPriority(true)).autogroup).toBe(10);
      expect((await backendPriority(false)).autogroup).toBe(0);
    });

    // A parallel worker is a backend of its own, at the postmaster's priority: a background thread's backend works
    // alone (an import's index builds ran two at full priority while the lookups waited).
    it('works alone: no parallel workers for its index builds or its queries', async () => {
      expect((await backendPriority(true)).parallel).toEqual({ maintenance: '0', gather: '0' });
      const lookups = (await backendPriority(false)).parallel;
      expect(Number(lookups.maintenance)).toBeGreaterThan(0);
      expect(Number(lookups.gather)).toBeGreaterThan(0);
    });

    it('keeps its priority for a thread that did not yield (the lookups)', async () => {
      expect(getPriority()).toBe(0);
      expect(await backendNice(false)).toBe(0);
    });
  },
);
