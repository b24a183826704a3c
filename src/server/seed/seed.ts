import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { REPO_ROOT } from '../paths';
import { countries as countryList } from 'countries-list';
import type { DataSet } from './data-set';
import { readCsv, toBranchRow, toHeadOfficeRow, type BranchRecord, type CsvFile, type PartnerRecord } from './csv-files';
import { StateResolver, loadCitiesOf, loadStates } from './states';
import { generateAgents, DEFAULT_AGENT_SEED } from './agents';
import { DELIVERY_MODE_CATALOG } from './delivery-modes';

/** The project's own copy of the reference data (a clone has no ../shared). */
export const SEED_DIR = join(REPO_ROOT, 'data', 'seed');

/**
 * Reads the reference files and derives the whole data set: countries served (those with partners),
 * their states and cities, head offices with the banks they route to, real branches, generated agents.
 */
export function buildSeedDataSet(dir = SEED_DIR, agentSeed = DEFAULT_AGENT_SEED): DataSet {
  return dataSetFromFiles(readSeedFiles(dir), agentSeed);
}

/** The reference files of a data/seed-shaped folder, parsed (formats in data/seed/SOURCES.md). */
export interface SeedFiles {
  partners: CsvFile<PartnerRecord>;
  branchFiles: CsvFile<BranchRecord>[];
}

export function readSeedFiles(dir = SEED_DIR): SeedFiles {
  return {
    partners: readCsv<PartnerRecord>(join(dir, 'partners.csv'), 'partners'),
    branchFiles: readdirSync(join(dir, 'bank-branches'))
      .filter((f) => f.endsWith('.csv'))
      .sort()
      .map((f) => readCsv<BranchRecord>(join(dir, 'bank-branches', f), 'branches')),
  };
}

/** The data set of parsed reference files: the one path both real and generated (scripts/gen.ts) data take. */
export function dataSetFromFiles({ partners, branchFiles }: SeedFiles, agentSeed = DEFAULT_AGENT_SEED): DataSet {
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

  const banks = new Map<string, Set<string>>();
  for (const b of branches) {
    if (!banks.has(b.country)) banks.set(b.country, new Set());
    banks.get(b.country)!.add(b.bankCode);
  }
  const headOffices = partners.records.map((p) => toHeadOfficeRow(p, (c) => [...(banks.get(c) ?? [])].sort()));
  const agents = generateAgents(headOffices, states, cities, agentSeed);

  return {
    countries,
    deliveryModes: DELIVERY_MODE_CATALOG,
    states,
    cities,
    headOffices,
    branches,
    agents,
    sources: [
      partners.source,
      ...branchFiles.map((f) => ({ ...f.source, countries: [...new Set(f.records.map((r) => r.country))].sort() })),
      { kind: 'agents', file: `generated(seed=${agentSeed})`, sha256: '', rows: agents.length },
    ],
  };
}
