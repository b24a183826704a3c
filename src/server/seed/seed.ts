import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { REPO_ROOT } from '../paths';
import { countries as countryList } from 'countries-list';
import type { DataSet } from '../domain/data-set';
import { toBranchRow, toHeadOfficeRow, type BranchRecord, type CsvFile, type PartnerRecord } from './csv-files';
import { StateResolver, loadCitiesOf, loadStates } from './states';
import { agentsKind, branchesKind, partnersKind, sortedBanks } from '../importer/kinds';
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

/** The reference files of a data/seed-shaped folder, parsed (formats in data/seed/SOURCES.md). */
export interface SeedFiles {
  partners: CsvFile<PartnerRecord>;
  branchFiles: CsvFile<BranchRecord>[];
}

export function readSeedFiles(dir = SEED_DIR): SeedFiles {
  return {
    partners: readCsv<PartnerRecord>(join(dir, 'partners.csv'), 'partners', partnersKind.columns),
    branchFiles: readdirSync(join(dir, 'bank-branches'))
      .filter((f) => f.endsWith('.csv'))
      .sort()
      .map((f) => readCsv<BranchRecord>(join(dir, 'bank-branches', f), 'branches', branchesKind.columns)),
  };
}

/** A reference file read by the importer's reader (one CSV parser for the project: trimmed cells, checked header). */
function readCsv<T>(path: string, kind: string, columns: readonly string[]): CsvFile<T> {
  const file = loadImportFile(path);
  if (!('bytes' in file)) throw new Error(`${path}: ${file.reason}`);
  const read = parseImportFile(file.file, file.bytes, columns);
  const problems = [...read.fileProblems, ...read.records.flatMap((r) => r.problems)];
  if (problems.length) throw new Error(`${path}: line ${problems[0].line}: ${problems[0].reason}`);
  const records = read.records.map((r) => r.record as unknown as T);
  return { records, source: { kind, file: file.file, sha256: file.sha256, rows: records.length } };
}

/**
 * The data set of parsed partner and branch files, without agents: the one path both real and generated
 * (scripts/gen.ts) data take. Agents come from a file (withAgentsFile) or from the generator (generate.ts).
 */
export function referenceDataSet({ partners, branchFiles }: SeedFiles): DataSet {
  const countryCodes = [...new Set(partners.records.map((p) => p.country))].sort();
  const countries = countryCodes.map((code) => {
    const info = countryList[code as keyof typeof countryList];
    return { code, name: info.name, currency: info.currency[0] };
  });
  const states = loadStates(countryCodes);
  const resolver = new StateResolver(states);
  const resolveState = (country: string, state: string) => resolver.resolve(country, state);

  const branchRecords = branchFiles.flatMap((f) => f.records);
  const branches = branchRecords.map((r) => toBranchRow(r, resolveState));
  const cities = loadCitiesOf(states, branchRecords);

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
