import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { REPO_ROOT } from '../paths';
import type { DataSet, DataSetSource } from '../domain/data-set';
import { StateResolver } from '../domain/places';
import { agentsKind, branchesKind, partnersKind, type ImportKindDefinition } from '../importer/kinds';
import { countriesOf, sortedBanks, toBranchRow, toHeadOfficeRow } from '../importer/records';
import type { BranchFileRecord, PartnerFileRecord } from '../importer/row-schemas';
import { loadImportFile, parseImportFile } from '../importer/read-file';
import { goodRows, validateRecords } from '../importer/validate';
import { DELIVERY_MODE_CATALOG } from '../../contract/delivery-modes';

/** The project's own copy of the reference data (a clone has no ../shared). */
export const SEED_DIR = join(REPO_ROOT, 'data', 'seed');

/**
 * The shipped data set: countries served (those with partners), their states and cities, head offices with
 * the banks they route to, real branches, and the agents of data/seed/agents.csv (generated once by
 * `npm run generate:agents` and committed: production needs neither faker nor the generator).
 */
export function buildSeedDataSet(dir = SEED_DIR): DataSet {
  return withAgentsFile(referenceDataSet(readSeedFiles(dir)), join(dir, 'agents.csv'));
}

/** A reference file's rows, as its kind's row schema parsed them, and where they came from. */
export interface CsvFile<T> {
  records: T[];
  source: DataSetSource;
}

/** The reference files of a data/seed-shaped folder, parsed (formats in data/seed/SOURCES.md). */
export interface SeedFiles {
  partners: CsvFile<PartnerFileRecord>;
  branchFiles: CsvFile<BranchFileRecord>[];
}

export function readSeedFiles(dir = SEED_DIR): SeedFiles {
  return {
    partners: readImportFile(join(dir, 'partners.csv'), partnersKind),
    branchFiles: readdirSync(join(dir, 'bank-branches'))
      .filter((f) => f.endsWith('.csv'))
      .sort()
      .map((f) => readImportFile(join(dir, 'bank-branches', f), branchesKind)),
  };
}

/**
 * A reference file read as `npm run import` reads one of its kind: the importer's reader (the project's one CSV
 * parser: trimmed cells, checked header), then the kind's row schema. A shipped file with a bad row stops the
 * seed. The checks against the served data (states, routability) run when the data set is built.
 */
function readImportFile<R>(path: string, definition: ImportKindDefinition<R>): CsvFile<R> {
  const file = loadImportFile(path);
  if (!('bytes' in file)) throw new Error(`${path}: ${file.reason}`);
  const read = parseImportFile(file.file, file.bytes, definition.columns);
  const problems = [...read.fileProblems, ...read.records.flatMap((r) => r.problems)];
  if (problems.length) throw new Error(`${path}: line ${problems[0].line}: ${problems[0].reason}`);
  const records = read.records.map(({ line, record }) => {
    const parsed = definition.schema.safeParse(record);
    if (parsed.success) return parsed.data;
    const [issue] = parsed.error.issues;
    throw new Error(`${path}: line ${line} ${String(issue.path[0] ?? '')}: ${issue.message}`);
  });
  return { records, source: { kind: definition.kind, file: file.file, sha256: file.sha256, rows: records.length } };
}

/**
 * The data set of parsed partner and branch files, without agents: the one path both real and generated
 * (scripts/gen.ts) data take. Agents come from a file (withAgentsFile) or from the generator (generate.ts).
 */
export function referenceDataSet({ partners, branchFiles }: SeedFiles): DataSet {
  const countryCodes = [...new Set(partners.records.map((p) => p.country))].sort();
  const { countries, states, cities } = countriesOf(
    countryCodes,
    branchFiles.flatMap((f) => f.records),
  );
  const resolver = new StateResolver(states);
  const resolveState = (country: string, state: string) => resolver.resolve(country, state);
  const branches = branchFiles.flatMap((f) => f.records.map((r) => toBranchRow(r, resolveState)));

  const banksOf = sortedBanks(branches);
  const headOffices = partners.records.map((p) => toHeadOfficeRow(p, banksOf));

  return {
    countries,
    deliveryModes: DELIVERY_MODE_CATALOG,
    states,
    cities,
    headOffices,
    branches,
    agents: [],
    sources: [
      partners.source,
      ...branchFiles.map((f) => ({ ...f.source, countries: [...new Set(f.records.map((r) => r.country))].sort() })),
    ],
  };
}

/**
 * The data set with the agents of an agents file, read and checked exactly as `npm run import agents` reads
 * and checks one (the importer's reader, row schema and checks): a shipped file with a bad row stops the seed.
 */
export function withAgentsFile(base: DataSet, path: string): DataSet {
  const file = loadImportFile(path);
  if (!('bytes' in file)) throw new Error(`${path}: ${file.reason}`);
  const read = parseImportFile(file.file, file.bytes, agentsKind.columns);
  const check = agentsKind.prepare(base);
  const verdict = validateRecords(agentsKind, read.records, check);
  const problems = [...read.fileProblems, ...verdict.problems];
  if (problems.length) {
    const [first] = problems;
    throw new Error(
      `${path} has ${problems.length} problems; line ${first.line} ${first.column ?? ''}: ${first.reason}`,
    );
  }
  const source = { kind: 'agents', file: file.file, sha256: file.sha256, rows: verdict.rowsValid };
  return check.build(goodRows(read.records, verdict.good), source).dataSet;
}
