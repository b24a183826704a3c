import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { DeskEngine } from '../../src/server/desk/engine';
import type { OpsActor } from '../../src/server/desk/desk';
import { recordKeyOf } from '../../src/contract/record-key';
import { branchesKind } from '../../src/server/importer/kinds';
import { openStore } from '../../src/server/open-store';
import { generateSeedFiles, generatedDataSet } from '../../src/server/seed/generate';
import type { BranchFileRecord } from '../../src/server/importer/row-schemas';

// The data folder of `npm run bench -- --desk`: the generated 1,000,000 branches (the data set of `npm run gen`,
// seed 7), then ten versions published through the desk's engine (DeskEngine: staged as a maker, approved by a
// checker, as the routes do), each a country's file with a realistic slice changed: 1,000 branches changed
// across the country's banks (500 of them the same in every version of that country, so their records carry a
// history of several versions), 300 removed, and the 300 the country's previous version removed added back.
// Every step is deterministic: the served rows of any version are replayed from the generator and the version
// count, so a later run measures the folder without building it again, and knows which records have a history.

export const DESK_BRANCHES = 1_000_000;
export const DESK_AGENTS = 100_000;
/** Versions the folder is built to (BENCH_DESK_VERSIONS: fewer, to measure a folder still being built). */
export const DESK_VERSIONS = Number(process.env.BENCH_DESK_VERSIONS ?? 10);
const SEED = 7;
const CHANGED = 1000;
const REMOVED = 300;
const COUNTRY_ORDER = ['IN', 'BD', 'NG'];

const maker: OpsActor = { name: 'bench-maker', roles: ['maker'], via: 'session' };
const checker: OpsActor = { name: 'bench-checker', roles: ['checker'], via: 'session' };

/** The served branch files (by country) after `versions` versions, and the keys of the records they touched. */
export interface DeskRows {
  byCountry: Map<string, BranchFileRecord[]>;
  touched: string[];
}

export const branchKeyParts = (r: BranchFileRecord): string[] =>
  r.routing_number ? [r.country, r.routing_number] : [r.country, r.bank_code, r.branch_name, r.address_line1 ?? ''];

/** Version `v`'s change to its country's rows (in place); the keys it touched. */
function applyVersion(v: number, rows: BranchFileRecord[], pool: Map<string, BranchFileRecord[]>): string[] {
  const country = COUNTRY_ORDER[v % COUNTRY_ORDER.length];
  const touched: string[] = [];
  const stride = Math.floor(rows.length / CHANGED);
  for (let k = 0; k < CHANGED; k++) {
    // The first half: the same rows in every version of the country (a long history); the other: moving.
    const at = k < CHANGED / 2 ? k * stride : (k * stride + 1 + v * 17) % rows.length;
    const row = { ...rows[at] };
    // A field outside the record's key: the address line 1 of a branch with a routing number, else line 2.
    if (row.routing_number) row.address_line1 = `${row.address_line1 ?? ''} (REV ${v + 1})`.trim().slice(0, 200);
    else row.address_line2 = `${row.address_line2 ?? ''} (REV ${v + 1})`.trim().slice(0, 200);
    rows[at] = row;
    touched.push(recordKeyOf(branchKeyParts(row)));
  }
  const removed: BranchFileRecord[] = [];
  const removeStride = Math.floor(rows.length / REMOVED);
  for (let k = REMOVED - 1; k >= 0; k--) {
    const at = k * removeStride + 3 + v;
    removed.push(...rows.splice(at, 1));
  }
  for (const row of [...removed, ...(pool.get(country) ?? [])]) touched.push(recordKeyOf(branchKeyParts(row)));
  rows.push(...(pool.get(country) ?? []));
  pool.set(country, removed);
  return touched;
}

/** The served branch rows after `versions` desk versions (replayed from the generator, no store needed). */
export function replayDeskRows(versions: number): DeskRows {
  const files = generateSeedFiles({ branches: DESK_BRANCHES, agents: DESK_AGENTS, seed: SEED });
  const byCountry = new Map(files.branchFiles.map((f) => [f.records[0].country, f.records.map((r) => ({ ...r }))]));
  const pool = new Map<string, BranchFileRecord[]>();
  const touched = new Set<string>();
  for (let v = 0; v < versions; v++) {
    const country = COUNTRY_ORDER[v % COUNTRY_ORDER.length];
    for (const key of applyVersion(v, byCountry.get(country)!, pool)) touched.add(key);
  }
  return { byCountry, touched: [...touched] };
}

/** Writes branch rows as an import file (the kind's columns, in that order). */
export async function writeBranchRows(path: string, rows: Iterable<BranchFileRecord>): Promise<void> {
  const out = createWriteStream(path);
  const columns = [...branchesKind.columns];
  out.write(stringify([], { header: true, columns }));
  let chunk: string[][] = [];
  const flush = async () => {
    if (!out.write(stringify(chunk))) await once(out, 'drain');
    chunk = [];
  };
  for (const row of rows) {
    chunk.push(columns.map((c) => String((row as unknown as Record<string, string | undefined>)[c] ?? '')));
    if (chunk.length === 10_000) await flush();
  }
  await flush();
  out.end();
  await once(out, 'finish');
}

interface DeskState {
  versions: { versionOf: number; country: string; stageMs: number; publishMs: number; counts: unknown }[];
}

const stateFile = (dataDir: string) => join(dataDir, 'desk-bench.json');

export function readDeskState(dataDir: string): DeskState {
  return existsSync(stateFile(dataDir))
    ? (JSON.parse(readFileSync(stateFile(dataDir), 'utf8')) as DeskState)
    : { versions: [] };
}

/**
 * Builds the desk bench's data folder up to DESK_VERSIONS versions: the generated data set when the store has
 * no branches, then each missing version staged and approved through the desk's engine. Resumes where a stopped
 * build left off (the state file counts the published versions).
 */
export async function buildDeskData(
  choice: { dataDir: string; databaseUrl?: string },
  log: (line: string) => void,
): Promise<DeskState> {
  mkdirSync(choice.dataDir, { recursive: true });
  const state = readDeskState(choice.dataDir);
  if (state.versions.length >= DESK_VERSIONS) return state;
  const store = await openStore({ ...choice, seedWhenEmpty: false, log: () => {} });
  // The staging worker's heap: a country's file diffed against 1,000,000 served branches needs more than the
  // default (OPS_STAGE_HEAP_MB, 768).
  const desk = new DeskEngine(store, {
    versionsKept: DESK_VERSIONS,
    stageHeapMb: Number(process.env.OPS_STAGE_HEAP_MB ?? 2048),
  });
  const work = join(choice.dataDir, 'desk-bench-files');
  mkdirSync(work, { recursive: true });
  try {
    if (state.versions.length === 0) {
      const started = performance.now();
      const files = generateSeedFiles({ branches: DESK_BRANCHES, agents: DESK_AGENTS, seed: SEED });
      await store.replaceDataSet(generatedDataSet(files, SEED));
      log(
        `generated ${DESK_BRANCHES} branches, ${DESK_AGENTS} agents (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
    for (let v = state.versions.length; v < DESK_VERSIONS; v++) {
      const country = COUNTRY_ORDER[v % COUNTRY_ORDER.length];
      const rows = replayDeskRows(v + 1).byCountry.get(country)!;
      const file = join(work, `branches-${country}-v${v + 1}.csv`);
      await writeBranchRows(file, rows);
      const started = performance.now();
      const staged = await desk.stage(maker, { kind: 'branches', path: file, fileName: `${country}-v${v + 1}.csv` });
      const stageMs = performance.now() - started;
      if (staged.status !== 'staged' || !staged.approvable)
        throw new Error(
          `version ${v + 1} (${country}) staged as ${staged.status}, ${staged.problemCount} problems: ${staged.failure ?? ''}`,
        );
      await desk.approve(checker, staged.id, { comment: `bench version ${v + 1}`, confirmRemovals: true });
      const publishMs = performance.now() - started - stageMs;
      state.versions.push({ versionOf: v + 1, country, stageMs, publishMs, counts: staged.diff?.counts });
      writeFileSync(stateFile(choice.dataDir), `${JSON.stringify(state, null, 2)}\n`);
      log(
        `version ${v + 1}/${DESK_VERSIONS} (${country}, ${rows.length} rows): diff ${JSON.stringify(staged.diff?.counts)}, staged in ${(stageMs / 1000).toFixed(1)} s, published in ${(publishMs / 1000).toFixed(1)} s`,
      );
      rmSync(file, { force: true });
    }
    return state;
  } finally {
    await desk.close();
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
}
