import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { DataSet } from '../../domain/data-set';
import type { LookupStore } from '../store';
import { SqliteStore } from '../sqlite/sqlite-store';
import { PgStore } from '../postgres/pg-store';
import { REPO_ROOT, seededDataDir } from '../../../testing/import-cli';
import { createTestPostgresDatabase, openTestStore, testEngines } from '../../../testing/test-app';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

// readDataSet is one snapshot (issue 12, item 2): while another process commits data sets back to back, every
// data set read is wholly one of them (each table carries the same variant's marker), with a version.

/** The marker (` ~0`, ` ~1`, or none) each table's first row carries. */
const markers = (d: DataSet) =>
  [d.countries[0].name, d.headOffices[0].name, d.branches[0].branchName, d.agents[0].agentName, d.sources[0].file].map(
    (text) => /~\d$/.exec(text)?.[0] ?? '',
  );

const COMMITS = 4;

describe.each(testEngines())('readDataSet on %s', (engine) => {
  it('is one snapshot while another process commits', async () => {
    let store: LookupStore;
    let env: NodeJS.ProcessEnv;
    let cleanup: () => Promise<void>;
    if (engine === 'sqlite') {
      const data = seededDataDir();
      store = SqliteStore.open(data.file);
      env = { DATA_DIR: data.dir, DATABASE_URL: '' };
      cleanup = async () => data.remove();
    } else {
      const database = await createTestPostgresDatabase();
      store = PgStore.open({ connectionString: database.url });
      env = { DATABASE_URL: database.url };
      cleanup = () => database.drop();
    }
    const writer = spawn(process.execPath, ['--import', 'tsx', join('src', 'testing', 'replace-loop.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let commits = 0;
    writer.stdout.on('data', (chunk: Buffer) => (commits += chunk.toString().split('committed').length - 1));
    try {
      const mixed: string[][] = [];
      let reads = 0;
      const started = Date.now();
      // The writer commits until killed: read until both it has committed and we have read several times.
      while ((commits < COMMITS || reads <= COMMITS) && Date.now() - started < 120_000) {
        // SQLite reads synchronously: let the event loop see the writer's output between reads.
        await nextTurn();
        const answer = await store.readDataSet();
        if (commits === 0) continue;
        reads++;
        const seen = markers(answer.dataSet);
        if (new Set(seen).size !== 1) mixed.push(seen);
        expect(answer.version).toMatch(/^\d+$/);
      }
      expect(commits).toBeGreaterThanOrEqual(COMMITS);
      expect(reads).toBeGreaterThan(COMMITS);
      expect(mixed).toEqual([]);
    } finally {
      writer.kill();
      await new Promise((resolve) => writer.once('close', resolve));
      await store.close();
      await cleanup();
    }
  }, 180_000);

  it('scanDataSet hands over, row by row, what readDataSet reads (PostgreSQL: a cursor, several batches)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rpl-scan-'));
    const store = await openTestStore(engine, dir);
    try {
      const { dataSet, version } = await store.readDataSet();
      const seen: Pick<DataSet, 'branches' | 'agents'> & { reference?: unknown } = { branches: [], agents: [] };
      const scanned = await store.scanDataSet({
        reference: ({ countries, states, headOffices }) => (seen.reference = { countries, states, headOffices }),
        branch: (row) => seen.branches.push({ ...row }),
        agent: (row) => seen.agents.push({ ...row }),
      });
      expect(scanned).toBe(version);
      expect(seen.reference).toEqual({
        countries: dataSet.countries,
        states: dataSet.states,
        headOffices: dataSet.headOffices,
      });
      // The real data: more branches than one batch of the cursor (5,000).
      expect(seen.branches.length).toBeGreaterThan(20_000);
      // The columns the scan hands over (SQLite's leaves out when a row was published), as readDataSet has them.
      const asScanned = <R extends object>(rows: R[], like: object) =>
        rows.map((row) => Object.fromEntries(Object.keys(like).map((key) => [key, row[key as keyof R]])));
      expect(seen.branches).toEqual(asScanned(dataSet.branches, seen.branches[0]));
      expect(seen.agents).toEqual(asScanned(dataSet.agents, seen.agents[0]));
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
