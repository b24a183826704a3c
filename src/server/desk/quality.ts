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
import { branchKey, keyParts } from '../domain/natural-keys';
import { recordKeyOf } from '../../contract/record-key';
import type { LookupStore } from '../store/store';

// The data-quality report of the published data: what the importer's rules let through or what
// arrived before them, found over the whole served data set. One pass per check, each a plain loop (the phone
// check, libphonenumber's full metadata, is the slow one: cached per distinct number).

type Branch = DataSet['branches'][number];
type Agent = DataSet['agents'][number];
type HeadOffice = DataSet['headOffices'][number];

// Each check of one record, shared by the report of what is served and by a staged change's (staged-quality.ts).

const ofBranch = (b: Branch, f: Pick<QualityFinding, 'check' | 'field' | 'value' | 'detail'>): QualityFinding => ({
  ...f,
  record: 'branch',
  country: b.country,
  code: b.routingNumber,
  name: `${b.bankName}, ${b.branchName}`,
  recordKey: recordKeyOf(keyParts(branchKey(b))),
});

const ofAgent = (a: Agent, f: Pick<QualityFinding, 'check' | 'field' | 'value' | 'detail'>): QualityFinding => ({
  ...f,
  record: 'agent',
  country: a.country,
  code: a.agentCode,
  name: a.agentName,
  recordKey: recordKeyOf([a.agentCode]),
});

const ofHeadOffice = (h: HeadOffice, f: Pick<QualityFinding, 'check' | 'field' | 'value' | 'detail'>) =>
  ({ ...f, record: 'headOffice', country: h.country, code: h.code, name: h.name, recordKey: h.code }) as const;

export const duplicateRoutingNumber = (b: Branch) =>
  ofBranch(b, {
    check: 'duplicate-routing-number',
    field: 'routing_number',
    value: b.routingNumber,
    detail: `routing number ${b.routingNumber} is held by an earlier branch of ${b.country}`,
  });

const DISTRICT_COUNTRY = new Set<string>(DISTRICT_COUNTRIES);
/** A branch without district where the branch search filters by district. */
export const branchWithoutDistrict = (b: Branch) =>
  DISTRICT_COUNTRY.has(b.country) && !b.district
    ? ofBranch(b, {
        check: 'branch-without-district',
        field: 'district',
        value: b.district,
        detail: `${b.country} branches are searched by district; this one has none`,
      })
    : null;

/** "country|code" of each listed state (GET /v1/states). */
export const listedStates = (dataSet: DataSet) => new Set(dataSet.states.map((s) => `${s.country}|${s.code}`));
const stateFault = (state: string, country: string) =>
  ({
    check: 'state-not-listed',
    field: 'state',
    value: state,
    detail: `state ${state} is not in the list of ${country}`,
  }) as const;
export const branchStateNotListed = (b: Branch, states: ReadonlySet<string>) =>
  b.state && !states.has(`${b.country}|${b.state}`) ? ofBranch(b, stateFault(b.state, b.country)) : null;
export const agentStateNotListed = (a: Agent, states: ReadonlySet<string>) =>
  a.state && !states.has(`${a.country}|${a.state}`) ? ofAgent(a, stateFault(a.state, a.country)) : null;

export const duplicateAgentCode = (a: Agent) =>
  ofAgent(a, {
    check: 'duplicate-agent-code',
    field: 'agent_code',
    value: a.agentCode,
    detail: `agent code ${a.agentCode} is held by an earlier agent`,
  });

/** Agent phone numbers that are not valid numbers of the agent's country (`valid`: a cache per distinct number). */
export function agentPhoneInvalid(a: Agent, validPhone: Map<string, boolean>): QualityFinding | null {
  if (!a.phoneNumber) return null;
  const key = `${a.country}|${a.phoneNumber}`;
  let valid = validPhone.get(key);
  if (valid === undefined) {
    valid = parsePhoneNumberFromString(a.phoneNumber, a.country as CountryCode)?.isValid() ?? false;
    validPhone.set(key, valid);
  }
  return valid
    ? null
    : ofAgent(a, {
        check: 'agent-phone-invalid',
        field: 'phone_number',
        value: a.phoneNumber,
        detail: `not a valid phone number of ${a.country}`,
      });
}

/** Branches per bank ("country|bank code") and each bank's name. */
export interface Banks {
  count: Map<string, number>;
  name: Map<string, string>;
}

/** Banks no mode-04 head office pays into, and mode-04 head offices paying into no bank. */
export function bankFindings(banks: Banks, headOffices: readonly HeadOffice[]): QualityFinding[] {
  const out: QualityFinding[] = [];
  const paidInto = new Set<string>();
  const modeFour = headOffices.filter((h) => h.deliveryModes.includes(ACCOUNT_TRANSFER_TO_OTHER_BANK));
  for (const h of modeFour) for (const bank of h.bankCodes) paidInto.add(`${h.country}|${bank}`);
  for (const [key, count] of banks.count) {
    if (count <= 0 || paidInto.has(key)) continue;
    const [country, bank] = key.split('|');
    out.push({
      check: 'bank-without-head-office',
      record: 'bank',
      country,
      code: bank,
      name: banks.name.get(key) ?? bank,
      field: 'bank_code',
      value: bank,
      detail: `no head office of ${country} offering delivery mode 04 pays into bank ${bank} (${count} branches)`,
      recordKey: null,
    });
  }
  for (const h of modeFour) {
    if (h.bankCodes.some((bank) => (banks.count.get(`${h.country}|${bank}`) ?? 0) > 0)) continue;
    out.push(
      ofHeadOffice(h, {
        check: 'head-office-without-bank',
        field: 'routes_to_banks',
        value: h.bankCodes.join(' ') || null,
        detail: `offers delivery mode 04, but none of its banks has a branch in ${h.country}`,
      }),
    );
  }
  return out;
}

/** The branches per bank of a data set. */
export function banksOf(branches: readonly Branch[]): Banks {
  const banks: Banks = { count: new Map(), name: new Map() };
  for (const b of branches) {
    const key = `${b.country}|${b.bankCode}`;
    banks.count.set(key, (banks.count.get(key) ?? 0) + 1);
    if (!banks.name.has(key)) banks.name.set(key, b.bankName);
  }
  return banks;
}

/** Every finding of every check, in QUALITY_CHECKS order, each check's findings in served order. */
export function qualityFindings(dataSet: DataSet): QualityFinding[] {
  const out: QualityFinding[] = [];
  const add = (finding: QualityFinding | null) => finding && out.push(finding);

  // Duplicate codes: every record after the first that holds a code.
  const seenRouting = new Set<string>();
  for (const b of dataSet.branches) {
    if (!b.routingNumber) continue;
    const key = `${b.country}|${b.routingNumber}`;
    if (seenRouting.has(key)) add(duplicateRoutingNumber(b));
    else seenRouting.add(key);
  }
  const seenAgent = new Set<string>();
  for (const a of dataSet.agents) {
    if (seenAgent.has(a.agentCode)) add(duplicateAgentCode(a));
    else seenAgent.add(a.agentCode);
  }
  const seenOffice = new Set<string>();
  for (const h of dataSet.headOffices) {
    if (seenOffice.has(h.code))
      add(
        ofHeadOffice(h, {
          check: 'duplicate-head-office-code',
          field: 'head_office_code',
          value: h.code,
          detail: `head office code ${h.code} is held by an earlier head office`,
        }),
      );
    else seenOffice.add(h.code);
  }
  for (const b of dataSet.branches) add(branchWithoutDistrict(b));
  const states = listedStates(dataSet);
  for (const b of dataSet.branches) add(branchStateNotListed(b, states));
  for (const a of dataSet.agents) add(agentStateNotListed(a, states));
  out.push(...bankFindings(banksOf(dataSet.branches), dataSet.headOffices));
  const validPhone = new Map<string, boolean>();
  for (const a of dataSet.agents) add(agentPhoneInvalid(a, validPhone));
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
