import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { Faker, base } from '@faker-js/faker';
import type { BranchFileRecord, PartnerFileRecord } from '../importer/row-schemas';
import type { DataSet } from '../domain/data-set';
import { readSeedFiles, referenceDataSet, type CsvFile, type SeedFiles } from './seed';
import { DEFAULT_AGENT_SEED, generateAgents } from './agents';
import { agentsKind } from '../importer/kinds';
import { countryProfile } from '../../contract';

// A large data set for the benchmark (scripts/gen.ts), shaped like the real one. Branch fields are drawn
// from the real branches of the same country, so a contains search matches about the same share of rows
// as on real data; agents come from the real agent generator with each partner's demo_locations scaled.
// Everything comes from one seeded Faker walked in a fixed order: same arguments, same rows.

export const DEFAULT_GENERATED_SEED = 7;

export interface GenerateOptions {
  branches: number;
  agents: number;
  seed?: number;
}

/**
 * Splits `total` over weights in proportion, rounding so that the parts add up to `total` exactly (none when all
 * weights are 0).
 */
export function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  let left = total - parts.reduce((a, b) => a + b, 0);
  // The remainder goes to the largest weights first (a fixed order: ties by position).
  const order = weights.map((w, i) => ({ w, i })).sort((a, b) => b.w - a.w || a.i - b.i);
  for (let k = 0; left > 0 && order.length > 0; k = (k + 1) % order.length, left--) parts[order[k].i]++;
  return parts;
}

/**
 * The branch's own code, unique per country, in the country's format (its profile, countries.ts): the profile's
 * prefix for the bank and district, then the next serial of that prefix.
 */
function routingNumbers() {
  const serials = new Map<string, number>();
  return (record: { country: string; bank_code: string; district: string }) => {
    const routing = countryProfile(record.country).codes?.generatedRouting;
    if (!routing) return '';
    const prefix = routing.prefix(record.bank_code, record.district);
    const n = serials.get(prefix) ?? 0;
    serials.set(prefix, n + 1);
    return prefix + routing.serial(n);
  };
}

function generateBranchFile(real: CsvFile<BranchFileRecord>, count: number, faker: Faker): CsvFile<BranchFileRecord> {
  const pool = real.records;
  const pick = () => pool[faker.number.int(pool.length - 1)];
  const records: BranchFileRecord[] = [];
  const routingNumber = routingNumbers();
  for (let serial = 0; serial < count; serial++) {
    // Bank, place, branch name and street come from different real branches: new combinations with the
    // real vocabulary and the real bank sizes.
    const bank = pick();
    const place = pick();
    records.push({
      country: bank.country,
      bank_code: bank.bank_code,
      bank_name: bank.bank_name,
      routing_number: routingNumber({ country: bank.country, bank_code: bank.bank_code, district: place.district }),
      branch_name: pick().branch_name,
      address_line1: pick().address_line1,
      address_line2: place.address_line2,
      city: place.city,
      district: place.district,
      state: place.state,
    });
  }
  return { records, source: { kind: 'branches', file: `generated-${real.source.file}`, sha256: '', rows: count } };
}

/**
 * The data set of reference files with agents drawn by the generator (agents.ts), for each partner's
 * demo_locations: what scripts/gen.ts loads and what `npm run generate:agents` writes to data/seed/agents.csv.
 */
export function generatedDataSet(files: SeedFiles, agentSeed = DEFAULT_AGENT_SEED): DataSet {
  const reference = referenceDataSet(files);
  const agents = generateAgents(reference.headOffices, reference.states, reference.cities, agentSeed);
  const source = { kind: 'agents', file: `generated(seed=${agentSeed})`, sha256: '', rows: agents.length };
  return { ...reference, agents, sources: [...reference.sources, source] };
}

/** The agents of a data set as an agents import file (the importer's columns and cells). */
export function writeAgentsFile(dataSet: DataSet, path: string): void {
  writeFileSync(path, stringify(agentsKind.cells(dataSet), { header: true, columns: [...agentsKind.columns] }));
}

/** Reference files shaped like data/seed, at the asked size (parse them with `generatedDataSet`). */
export function generateSeedFiles(options: GenerateOptions, real: SeedFiles = readSeedFiles()): SeedFiles {
  const faker = new Faker({ locale: [base] });
  faker.seed(options.seed ?? DEFAULT_GENERATED_SEED);
  const branchCounts = apportion(
    options.branches,
    real.branchFiles.map((f) => f.records.length),
  );
  const branchFiles = real.branchFiles.map((file, i) => generateBranchFile(file, branchCounts[i], faker));

  const locations = apportion(
    options.agents,
    real.partners.records.map((p) => Number(p.demo_locations || 0)),
  );
  const partnerRecords: PartnerFileRecord[] = real.partners.records.map((p, i) => ({
    ...p,
    demo_locations: String(locations[i]),
  }));
  const partners = {
    records: partnerRecords,
    source: { ...real.partners.source, file: 'generated-partners.csv', sha256: '' },
  };
  return { partners, branchFiles };
}

/** A content hash of a data set, row by row (a 1M-row data set is too big for one JSON string). */
export function dataSetHash(dataSet: DataSet): string {
  const hash = createHash('sha256');
  for (const [kind, rows] of Object.entries(dataSet)) {
    hash.update(`${kind}\n`);
    for (const row of rows as unknown[]) hash.update(`${JSON.stringify(row)}\n`);
  }
  return hash.digest('hex');
}

/**
 * Writes the files in the data/seed layout (agents from the data set), so the seed reads the same data set from disk.
 */
export function writeSeedFiles(files: SeedFiles, dataSet: DataSet, dir: string): void {
  mkdirSync(join(dir, 'bank-branches'), { recursive: true });
  writeFileSync(join(dir, 'partners.csv'), stringify(files.partners.records, { header: true }));
  for (const file of files.branchFiles) {
    const country = file.records[0]?.country ?? file.source.file.replace(/^generated-|\.csv$/g, '');
    writeFileSync(join(dir, 'bank-branches', `${country}.csv`), stringify(file.records, { header: true }));
  }
  writeAgentsFile(dataSet, join(dir, 'agents.csv'));
}
