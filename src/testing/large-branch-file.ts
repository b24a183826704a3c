import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';
import { readSeedFiles } from '../server/seed/seed';
import { BD_DISTRICT_CODES } from '../contract/countries';
import { branchesKind } from '../server/importer/kinds';

/**
 * Writes a large, valid Bangladesh branch file for speed measurements and the kill test: the real banks of
 * BD.csv, every district code, routing numbers bank(3) district(2) branch(3) check(1) all distinct.
 * `marker` is added to every branch name so a test can tell this set from the shipped one.
 */
export async function writeLargeBangladeshBranchFile(path: string, rows: number, marker = 'GENERATED'): Promise<void> {
  const shipped = readSeedFiles().branchFiles.find((f) => f.source.file === 'BD.csv')!.records;
  const banks = [...new Map(shipped.map((r) => [r.bank_code, r.bank_name])).entries()];
  const divisionOf = new Map(shipped.map((r) => [r.district, r.state]));
  const districts = Object.entries(BD_DISTRICT_CODES);
  const out = createWriteStream(path);
  out.write(stringify([], { header: true, columns: [...branchesKind.columns] }));
  const chunk = 10_000;
  for (let start = 0; start < rows; start += chunk) {
    const records: string[][] = [];
    for (let i = start; i < Math.min(rows, start + chunk); i++) {
      const [bankCode, bankName] = banks[i % banks.length];
      const [districtCode, district] = districts[Math.floor(i / banks.length) % districts.length];
      const serial = String(Math.floor(i / (banks.length * districts.length))).padStart(4, '0');
      const division = divisionOf.get(district) ?? 'Dhaka';
      records.push([
        'BD',
        bankCode,
        bankName,
        `${bankCode}${districtCode}${serial}`,
        `${marker} BRANCH ${i + 1}`,
        `${marker} BRANCH ${i + 1} BRANCH`,
        `${district}, ${division} Division, Bangladesh`,
        '',
        district,
        division,
      ]);
    }
    if (!out.write(stringify(records))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
