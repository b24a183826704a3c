import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { describe, it } from 'vitest';
import type { AuditEntry, ChangeSummary, OpsPage, VersionSummary } from '../../../contract/ops-changes';
import { OPS_PASSWORD, OPS_TEST_CREATOR } from '../../../testing/ops';
import { seededDataDir, startServer, type ServerProcess } from '../../../testing/server-process';
import { createTestPostgresDatabase, testEngines, type TestEngine } from '../../../testing/test-app';
import type { DataSet } from '../../domain/data-set';
import { branchesKind } from '../../importer/kinds';
import { SQLITE_FILE_NAME } from '../../open-store';
import { opsAccountsOf } from '../../store/ops-accounts';
import { PgStore } from '../../store/postgres/pg-store';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import type { LookupStore } from '../../store/store';
import { addAccount } from '../accounts';
import { buildChange } from '../prepare';
import { INTERRUPTED_STAGING, type CrashPoint } from '../recovery';

// The desk under kill -9: real server processes, killed with SIGKILL at a step of a staging or a publish — a
// named step (armed through DESK_CRASH_FILE: recovery.ts, crashPoint) or a random moment — then started again
// on the same database. After the restart the served data is wholly the old or wholly the new; if new, the change
// is published with its version, snapshot and events, and a rollback to the version before it brings the old
// data back; if old, the change is staged again (or, its staging interrupted, failed) and approving it publishes
// it. No change is left approved or validating, no upload is left in DATA_DIR/uploads. 20 runs in all, shared
// between the stores; each named step at least once on each, the rest random moments, in a random order.

const RUNS = 20;
const NAMED: { phase: 'staging' | 'publish'; point: CrashPoint }[] = [
  { phase: 'staging', point: 'staging-started' },
  { phase: 'staging', point: 'staging-saving' },
  { phase: 'publish', point: 'publish-claimed' },
  { phase: 'publish', point: 'publish-before-swap' },
  { phase: 'publish', point: 'publish-swapped' },
  { phase: 'publish', point: 'publish-recording' },
];
type Run = { phase: 'staging' | 'publish'; point?: CrashPoint; afterMs?: number };

// Reproducible: CRASH_SEED=<the seed printed> runs the same order and moments again.
const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
let state = seed;
/** mulberry32: a small seeded generator, so a failing run can be repeated. */
function random(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function runsFor(count: number): Run[] {
  const runs: Run[] = NAMED.map((n) => ({ ...n }));
  while (runs.length < count) {
    const phase = random() < 0.4 ? 'staging' : 'publish';
    runs.push({ phase, afterMs: Math.round(random() * (phase === 'staging' ? 400 : 700)) });
  }
  for (let i = runs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [runs[i], runs[j]] = [runs[j], runs[i]];
  }
  return runs.slice(0, count);
}

/** Bangladesh's first branches, and nothing else, are served: each publish and index build takes little. */
const SERVED_BRANCHES = 300;

/** The served branches (all of Bangladesh) with one removed and two renamed with `tag`: a change file. */
function editedBranches(served: DataSet, tag: string): Buffer {
  const rows = branchesKind.cells(served).filter((_, i) => i !== 1);
  for (const i of [2, 3])
    rows[i] = { ...rows[i], branch_name: `${rows[i].branch_name.replace(/ RUN\d+$/, '')} ${tag}` };
  return Buffer.from(stringify(rows, { header: true, columns: [...branchesKind.columns] }));
}

/** Every branch served, as file cells, in a fixed order: equal for equal data. */
const fingerprint = (dataSet: DataSet) =>
  createHash('sha256')
    .update(
      branchesKind
        .cells(dataSet)
        .map((row) => JSON.stringify(row))
        .sort()
        .join('\n'),
    )
    .digest('hex');

interface Session {
  name: string;
  cookie: string;
  csrfToken: string;
}

// The stores' runs side by side: each mostly waits for its server to start again.
describe('the desk killed with SIGKILL', () => {
  it.for(testEngines())(
    `holds over ${RUNS / testEngines().length} crashes of a staging or a publish on %s`,
    { concurrent: true, timeout: 300_000 },
    async (engine: TestEngine, { expect }) => {
      const runs = runsFor(RUNS / testEngines().length);
      const t0 = Date.now();
      const note = (what: string) => console.log(`${engine} ${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
      console.log(
        `crash runs on ${engine} (CRASH_SEED=${seed}): ${runs.map((r) => r.point ?? `${r.phase}+${r.afterMs}ms`).join(', ')}`,
      );
      const dataDir = engine === 'sqlite' ? seededDataDir() : mkdtempSync(join(tmpdir(), 'rpl-crash-'));
      const database = engine === 'postgres' ? await createTestPostgresDatabase() : undefined;
      const store: LookupStore = database
        ? PgStore.open({ connectionString: database.url })
        : SqliteStore.open(join(dataDir, SQLITE_FILE_NAME));
      if (database) await (store as PgStore).migrate();
      const seeded = (await store.readDataSet()).dataSet;
      const branches = seeded.branches.filter((b) => b.country === 'BD').slice(0, SERVED_BRANCHES);
      const sources = seeded.sources.filter((s) => s.kind !== 'branches' || s.countries?.includes('BD'));
      await store.replaceDataSet({ ...seeded, branches, agents: [], sources });
      for (const [name, roles] of [
        ['mia', ['maker']],
        ['cole', ['checker']],
        ['rita', ['checker']],
      ] as const)
        await addAccount(opsAccountsOf(store), { name, roles: [...roles], password: OPS_PASSWORD }, OPS_TEST_CREATOR);
      const crashFile = join(dataDir, 'crash-at');
      const uploads = join(dataDir, 'uploads');
      const env = {
        ...(database ? { DATABASE_URL: database.url } : {}),
        DESK_LEASE_SECONDS: '1',
        DESK_CRASH_FILE: crashFile,
        REQUEST_TIMEOUT_MS: '2000',
      };
      let server: ServerProcess = await startServer(env, dataDir);

      async function call<T>(
        method: string,
        path: string,
        session?: Session,
        body?: unknown,
      ): Promise<{ status: number; json: T }> {
        const headers: Record<string, string> = session
          ? { cookie: session.cookie, 'x-csrf-token': session.csrfToken }
          : {};
        if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
        const response = await fetch(`${server.url}${path}`, {
          method,
          headers,
          body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
      }
      async function signIn(name: string): Promise<Session> {
        const response = await fetch(`${server.url}/v1/ops/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, password: OPS_PASSWORD }),
        });
        expect(response.status).toBe(200);
        const cookie = response.headers
          .getSetCookie()
          .find((c) => c.startsWith('rpl-ops-session='))!
          .split(';')[0];
        return { name, cookie, csrfToken: ((await response.json()) as { csrfToken: string }).csrfToken };
      }
      const [mia, cole, rita] = [await signIn('mia'), await signIn('cole'), await signIn('rita')];

      const changes = async (status?: string) =>
        (
          await call<OpsPage<ChangeSummary>>(
            'GET',
            `/v1/ops/changes?pageSize=100${status ? `&status=${status}` : ''}`,
            mia,
          )
        ).json.data;
      const change = async (id: string) => (await call<ChangeSummary>('GET', `/v1/ops/changes/${id}`, mia)).json;
      const settled = async (id: string) => {
        await expect
          .poll(async () => (await change(id)).status, { timeout: 30_000, interval: 100 })
          .not.toBe('validating');
        return change(id);
      };
      const auditOf = async (id: string) =>
        (await call<OpsPage<AuditEntry>>('GET', '/v1/ops/audit?pageSize=100', mia)).json.data.filter(
          (e) => e.target === id,
        );
      const versions = async () =>
        (await call<OpsPage<VersionSummary>>('GET', '/v1/ops/versions?kind=branches&pageSize=100', mia)).json.data;
      const leftUploads = () => readdirSync(uploads).filter((name) => name.endsWith('.upload'));
      function upload(session: Session, name: string, bytes: Buffer) {
        const form = new FormData();
        form.append('kind', 'branches');
        form.append('file', new Blob([Uint8Array.from(bytes)]), name);
        return call<ChangeSummary>('POST', '/v1/ops/changes', session, form);
      }
      /** Approves, publishing: the summary (whatever the HTTP status, the change's state is checked after). */
      const approve = (session: Session, id: string) =>
        call<ChangeSummary>('POST', `/v1/ops/changes/${id}/approve`, session, {
          comment: 'checked',
          confirmRemovals: true,
        });

      /** Runs `action`; the server dies at the armed point or is killed `afterMs` after it began; then restarts. */
      async function crashDuring(run: Run, action: () => Promise<unknown>) {
        if (run.point) writeFileSync(crashFile, run.point);
        const acting = action().catch(() => {});
        if (run.afterMs !== undefined) {
          // At the moment drawn, whether the action is still running or done: the run always ends in a kill -9.
          await new Promise((resolve) => setTimeout(resolve, run.afterMs));
          server.child.kill('SIGKILL');
        }
        await acting;
        const exit = await Promise.race([
          server.exited,
          new Promise((resolve) => setTimeout(() => resolve('still running'), 30_000)),
        ]);
        expect(exit, `the server should have died at ${run.point ?? 'the kill'}`).toBe('SIGKILL');
        rmSync(crashFile, { force: true });
        server = await startServer(env, dataDir);
        // Recovery: nothing stays approved or validating, no upload stays behind.
        await expect
          .poll(
            async () => [
              (await changes('approved')).length,
              (await changes('validating')).length,
              leftUploads().length,
            ],
            {
              timeout: 30_000,
              interval: 200,
            },
          )
          .toEqual([0, 0, 0]);
        note('restarted and recovered');
      }

      try {
        mkdirSync(uploads, { recursive: true });
        // An upload an earlier crash left behind, an hour old: removed like the runs' own.
        const stray = join(uploads, 'left-by-a-crash.upload');
        writeFileSync(stray, 'country,bank_code\n');
        utimesSync(stray, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
        for (const [n, run] of runs.entries()) {
          const label = `run ${n + 1} (${run.point ?? `${run.phase} killed after ${run.afterMs} ms`})`;
          note(label);
          const before = await store.readDataSet();
          const fileName = `bd-run-${n + 1}.csv`;
          const bytes = editedBranches(before.dataSet, `RUN${n + 1}`);
          const next = await buildChange('branches', bytes, fileName, before.dataSet);
          expect(next, label).not.toBeNull();
          const [oldData, newData] = [fingerprint(before.dataSet), fingerprint(next!)];
          const known = new Set((await changes()).map((c) => c.id));

          let id: string | undefined;
          if (run.phase === 'staging') {
            await crashDuring(run, async () => {
              id = (await upload(mia, fileName, bytes)).json.id;
            });
          } else {
            const staged = await upload(mia, fileName, bytes);
            expect(staged.status, label).toBe(202);
            id = staged.json.id;
            expect((await settled(id)).approvable, label).toBe(true);
            await crashDuring(run, () => approve(cole, id!));
          }
          id ??= (await changes()).find((c) => !known.has(c.id))?.id;
          const served = fingerprint((await store.readDataSet()).dataSet);
          expect([oldData, newData], `${label}: the served data is wholly old or wholly new`).toContain(served);
          note(`${label}: ${served === newData ? 'new' : 'old'} data served after the restart`);

          if (run.phase === 'staging') {
            expect(served, label).toBe(oldData);
            if (id === undefined) continue; // killed before the upload was received: nothing to find
            const summary = await change(id);
            if (run.point) {
              expect(summary, label).toMatchObject({ status: 'failed', failure: INTERRUPTED_STAGING });
              expect(
                (await auditOf(id)).map((e) => e.action),
                label,
              ).toContain('stage-interrupted');
            }
            expect(['failed', 'staged'], label).toContain(summary.status);
            expect((await call('POST', `/v1/ops/changes/${id}/discard`, mia)).status, label).toBe(200);
            continue;
          }

          const events = async () =>
            (await auditOf(id!)).map((e) => ({ action: e.action, recovered: e.detail?.recovered }));
          if (served === oldData) {
            // Released: staged again, and an approval publishes it.
            expect(['publish-swapped', 'publish-recording'], label).not.toContain(run.point);
            const summary = await change(id!);
            expect(summary, label).toMatchObject({ status: 'staged', approvable: true, decidedBy: null });
            if (run.point)
              expect(
                (await events()).map((e) => e.action),
                label,
              ).toContain('publish-interrupted');
            const again = await approve(cole, id!);
            expect(again.status, `${label}: ${JSON.stringify(again.json)}`).toBe(200);
            expect(again.json.status, label).toBe('published');
            expect(fingerprint((await store.readDataSet()).dataSet), label).toBe(newData);
            expect(
              (await versions()).some((v) => v.changeId === id),
              label,
            ).toBe(true);
            continue;
          }
          // Published: its version (with its snapshot) and events are there, recovered or not.
          expect(['publish-claimed', 'publish-before-swap'], label).not.toContain(run.point);
          expect(await change(id!), label).toMatchObject({ status: 'published', decidedBy: 'cole' });
          const all = await versions();
          const at = all.findIndex((v) => v.changeId === id);
          expect(at, `${label}: a version of the change`).toBeGreaterThanOrEqual(0);
          expect(all[at].restorable, label).toBe(true);
          const logged = await events();
          for (const action of ['approve', 'publish']) {
            const event = logged.find((e) => e.action === action);
            expect(event, `${label}: its ${action} event`).toBeDefined();
            // Recorded by the recovery when the crash came between the swap and the record.
            if (run.point === 'publish-swapped' || run.point === 'publish-recording')
              expect(event!.recovered).toBe(true);
          }
          // A rollback to the version before it brings the old data back.
          const previous = all[at + 1];
          const rollback = await call<ChangeSummary>('POST', `/v1/ops/versions/${previous.id}/rollback`, cole);
          expect(rollback.status, label).toBe(202);
          expect((await settled(rollback.json.id)).approvable, label).toBe(true);
          const restored = await approve(rita, rollback.json.id);
          expect(restored.status, `${label}: ${JSON.stringify(restored.json)}`).toBe(200);
          expect(fingerprint((await store.readDataSet()).dataSet), label).toBe(oldData);
        }
        expect(await changes('approved')).toEqual([]);
        expect(await changes('validating')).toEqual([]);
      } finally {
        await server.stop();
        await store.close();
        await database?.drop();
      }
    },
  );
});
