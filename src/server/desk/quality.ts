import { stringify } from 'csv-stringify/sync';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../contract';
import { DISTRICT_COUNTRIES } from '../../contract/countries';
import { toCsvCell } from '../../contract/csv-cell';
import {
  QUALITY_CHECKS,
  QUALITY_CSV_COLUMNS,
  type QualityCheckId,
  type QualityFinding,
  type QualityReport,
} from '../../contract/ops-quality';
import type { DataSet } from '../domain/data-set';
import type { LookupStore } from '../store/store';

// The data-quality report of the published data (issue #24): what the importer's rules let through or what
// arrived before them, found over the whole served data set. One pass per check, each a plain loop: a million
// branches take well under a second (the phone check, libphonenumber's full metadata, is the slow one: about
// 20 µs an agent, cached per distinct number).

/** Every finding of every check, in QUALITY_CHECKS order, each check's findings in served order. */
export function qualityFindings(dataSet: DataSet): QualityFinding[] {
  const out: QualityFinding[] = [];
  const add = (finding: QualityFinding) => out.push(finding);
  const bankName = new Map<string, string>();
  for (const b of dataSet.branches)
    if (!bankName.has(`${b.country}|${b.bankCode}`)) bankName.set(`${b.country}|${b.bankCode}`, b.bankName);
  const branchName = (b: DataSet['branches'][number]) => `${b.bankName}, ${b.branchName}`;

  // Duplicate codes: every record after the first that holds a code.
  const seenRouting = new Set<string>();
  for (const b of dataSet.branches) {
    if (!b.routingNumber) continue;
    const key = `${b.country}|${b.routingNumber}`;
    if (seenRouting.has(key))
      add({
        check: 'duplicate-routing-number',
        record: 'branch',
        country: b.country,
        code: b.routingNumber,
        name: branchName(b),
        field: 'routing_number',
        value: b.routingNumber,
        detail: `routing number ${b.routingNumber} is held by an earlier branch of ${b.country}`,
      });
    else seenRouting.add(key);
  }
  const seenAgent = new Set<string>();
  for (const a of dataSet.agents) {
    if (seenAgent.has(a.agentCode))
      add({
        check: 'duplicate-agent-code',
        record: 'agent',
        country: a.country,
        code: a.agentCode,
        name: a.agentName,
        field: 'agent_code',
        value: a.agentCode,
        detail: `agent code ${a.agentCode} is held by an earlier agent`,
      });
    else seenAgent.add(a.agentCode);
  }
  const seenOffice = new Set<string>();
  for (const h of dataSet.headOffices) {
    if (seenOffice.has(h.code))
      add({
        check: 'duplicate-head-office-code',
        record: 'headOffice',
        country: h.country,
        code: h.code,
        name: h.name,
        field: 'head_office_code',
        value: h.code,
        detail: `head office code ${h.code} is held by an earlier head office`,
      });
    else seenOffice.add(h.code);
  }

  // Branches without district where the branch search filters by district.
  const districtCountries = new Set(DISTRICT_COUNTRIES);
  for (const b of dataSet.branches) {
    if (districtCountries.has(b.country) && !b.district)
      add({
        check: 'branch-without-district',
        record: 'branch',
        country: b.country,
        code: b.routingNumber,
        name: branchName(b),
        field: 'district',
        value: b.district,
        detail: `${b.country} branches are searched by district; this one has none`,
      });
  }

  // States not in the country's list (GET /v1/states).
  const states = new Set(dataSet.states.map((s) => `${s.country}|${s.code}`));
  for (const b of dataSet.branches) {
    if (b.state && !states.has(`${b.country}|${b.state}`))
      add({
        check: 'state-not-listed',
        record: 'branch',
        country: b.country,
        code: b.routingNumber,
        name: branchName(b),
        field: 'state',
        value: b.state,
        detail: `state ${b.state} is not in the list of ${b.country}`,
      });
  }
  for (const a of dataSet.agents) {
    if (a.state && !states.has(`${a.country}|${a.state}`))
      add({
        check: 'state-not-listed',
        record: 'agent',
        country: a.country,
        code: a.agentCode,
        name: a.agentName,
        field: 'state',
        value: a.state,
        detail: `state ${a.state} is not in the list of ${a.country}`,
      });
  }

  // Banks no mode-04 head office pays into, and mode-04 head offices paying into no bank.
  const paidInto = new Set<string>();
  const modeFour = dataSet.headOffices.filter((h) => h.deliveryModes.includes(ACCOUNT_TRANSFER_TO_OTHER_BANK));
  for (const h of modeFour) for (const bank of h.bankCodes) paidInto.add(`${h.country}|${bank}`);
  const branchCount = new Map<string, number>();
  for (const b of dataSet.branches) {
    const key = `${b.country}|${b.bankCode}`;
    branchCount.set(key, (branchCount.get(key) ?? 0) + 1);
  }
  for (const [key, count] of branchCount) {
    if (paidInto.has(key)) continue;
    const [country, bank] = key.split('|');
    add({
      check: 'bank-without-head-office',
      record: 'bank',
      country,
      code: bank,
      name: bankName.get(key) ?? bank,
      field: 'bank_code',
      value: bank,
      detail: `no head office of ${country} offering delivery mode 04 pays into bank ${bank} (${count} branches)`,
    });
  }
  for (const h of modeFour) {
    if (h.bankCodes.some((bank) => branchCount.has(`${h.country}|${bank}`))) continue;
    add({
      check: 'head-office-without-bank',
      record: 'headOffice',
      country: h.country,
      code: h.code,
      name: h.name,
      field: 'routes_to_banks',
      value: h.bankCodes.join(' ') || null,
      detail: `offers delivery mode 04, but none of its banks has a branch in ${h.country}`,
    });
  }

  // Agent phone numbers that are not valid numbers of the agent's country.
  const validPhone = new Map<string, boolean>();
  for (const a of dataSet.agents) {
    if (!a.phoneNumber) continue;
    const key = `${a.country}|${a.phoneNumber}`;
    let valid = validPhone.get(key);
    if (valid === undefined) {
      valid = parsePhoneNumberFromString(a.phoneNumber, a.country as CountryCode)?.isValid() ?? false;
      validPhone.set(key, valid);
    }
    if (!valid)
      add({
        check: 'agent-phone-invalid',
        record: 'agent',
        country: a.country,
        code: a.agentCode,
        name: a.agentName,
        field: 'phone_number',
        value: a.phoneNumber,
        detail: `not a valid phone number of ${a.country}`,
      });
  }
  return out;
}

export interface QualityOptions {
  /** Findings shown per check (the CSV has them all). Default 20. */
  examples?: number;
  /** The data version the data set is (null: none). */
  dataVersion?: string | null;
  now?: Date;
}

/** Each check's count and first findings. */
export function qualityReport(dataSet: DataSet, options: QualityOptions = {}): QualityReport {
  return reportOfFindings(qualityFindings(dataSet), options);
}

/** The report of findings already computed (the desk's route keeps them per data version). */
export function reportOfFindings(findings: readonly QualityFinding[], options: QualityOptions = {}): QualityReport {
  const limit = options.examples ?? 20;
  return {
    dataVersion: options.dataVersion ?? null,
    generatedAt: (options.now ?? new Date()).toISOString(),
    examplesLimit: limit,
    checks: QUALITY_CHECKS.map((check) => {
      const of = findings.filter((f) => f.check === check);
      return { check, count: of.length, examples: of.slice(0, limit) };
    }),
  };
}

/** The report of what a store serves now, with its data version. */
export async function storeQualityReport(store: LookupStore, options: Omit<QualityOptions, 'dataVersion'> = {}) {
  const { dataSet, version } = await store.readDataSet();
  return qualityReport(dataSet, { ...options, dataVersion: version });
}

/**
 * The findings as CSV (one check, or all), every cell through the one formula-injection rule as every CSV the
 * project writes (contract/csv-cell.ts).
 */
export function qualityCsv(findings: readonly QualityFinding[], check?: QualityCheckId): string {
  const rows = (check ? findings.filter((f) => f.check === check) : findings).map((f) =>
    QUALITY_CSV_COLUMNS.map((column) => toCsvCell(f[column] ?? '')),
  );
  return stringify(rows, { header: true, columns: [...QUALITY_CSV_COLUMNS] });
}
