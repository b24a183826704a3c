import type { ZodType } from 'zod';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../contract';
import type { AgentRow, BranchRow, DataSet, DataSetSource, HeadOfficeRow } from '../domain/data-set';
import { AGENT_TABLE, BRANCH_TABLE, fileCells, fileColumns } from '../domain/kind-columns';
import { StateResolver, loadCitiesOf } from '../domain/places';
import { countriesOf, sortedBanks, toBranchRow, toHeadOfficeRow } from './records';
import { deliveryModeCodeOf } from '../../contract/delivery-modes';
import {
  agentRecord,
  branchRecord,
  partnerRecord,
  type AgentFileRecord,
  type BranchFileRecord,
  type PartnerFileRecord,
} from './row-schemas';
import type { FileProblem } from './read-file';

// One definition per kind of import file: its columns, its row schema, the checks that need the served data
// (served countries, states, duplicates, references), how the imported rows replace the served ones, and how
// the served rows are written back (export). Replace scopes: partners and agents replace the whole kind;
// branches replace the branches of the receiving countries present in the file and keep the others.

export const IMPORT_KINDS = ['branches', 'partners', 'agents'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface GoodRow<R> {
  line: number;
  record: R;
}

/** A served row of any kind, as a good row of a file becomes one. */
export type KindRow = BranchRow | AgentRow | HeadOfficeRow;

export interface KindCheck<R> {
  /** Problems of one row that passed its schema, against the served data and the rows before it. */
  checkRow(record: R, line: number): FileProblem[];
  /** The served row a good row becomes (what the desk's difference compares; build uses the same). */
  row(record: R): KindRow;
  /**
   * The whole new data set with the good rows swapped in, and the problems that would leave the served data
   * inconsistent (they block the import even with --skip-invalid: they are not about one row).
   */
  build(rows: GoodRow<R>[], source: DataSetSource): { dataSet: DataSet; problems: FileProblem[]; scope: string };
}

export interface ImportKindDefinition<R> {
  kind: ImportKind;
  columns: readonly string[];
  /** Columns a file may leave out (each row then has them empty). */
  optionalColumns?: readonly string[];
  schema: ZodType<R>;
  prepare(served: DataSet): KindCheck<R>;
  /** What a file of the kind replaces ("the branches of BD, IN", "all agents"), given its countries. */
  scopeOf(countries: readonly string[]): string;
  /**
   * Whether `build` finds problems that need every good row at once (a partners file: the served agents and
   * branches must keep a head office); for the other kinds it finds none, and a file can be checked streamed.
   */
  checksWholeFile: boolean;
  /** The served rows of this kind as file cells, in the import format. */
  cells(served: DataSet): Record<string, string>[];
  /** One served row of this kind as file cells (a scoped change keeps what its file leaves out: desk/scope.ts). */
  cellsOf(served: DataSet): (row: KindRow) => Record<string, string>;
}

/**
 * A head office routes to every bank of its country when its list is that whole list: that is what `*`
 * became when it was loaded. Such head offices keep routing to every bank when a branch import changes the
 * banks, and export writes them back as `*`.
 */
function routesToAllBanks(office: HeadOfficeRow, banksOf: (country: string) => string[]): boolean {
  const all = banksOf(office.country);
  if (office.bankCodes.length === 0 || office.bankCodes.length !== all.length) return false;
  const listed = new Set(office.bankCodes);
  return all.every((bank) => listed.has(bank));
}

/** Which banks of each country some mode-04 head office pays into (`all` when one routes to every bank). */
function routability(headOffices: HeadOfficeRow[], banksOf: (country: string) => string[]) {
  const routes = new Map<string, Set<string> | 'all'>();
  for (const h of headOffices) {
    if (!h.deliveryModes.includes(ACCOUNT_TRANSFER_TO_OTHER_BANK)) continue;
    if (routes.get(h.country) === 'all') continue;
    if (routesToAllBanks(h, banksOf)) routes.set(h.country, 'all');
    else {
      const banks = (routes.get(h.country) as Set<string> | undefined) ?? new Set<string>();
      for (const b of h.bankCodes) banks.add(b);
      routes.set(h.country, banks);
    }
  }
  return (country: string, bankCode: string) => {
    const banks = routes.get(country);
    return banks === 'all' || (banks?.has(bankCode) ?? false);
  };
}

/**
 * StateResolver with each (country, published state) resolved once: a large file repeats a few dozen states
 * hundreds of thousands of times, and resolving normalises Unicode.
 */
function cachedStates(served: DataSet) {
  const resolver = new StateResolver(served.states);
  const resolved = new Map<string, string | null>();
  return (country: string, state: string): string | null => {
    const key = `${country}\u0000${state}`;
    let code = resolved.get(key);
    if (code === undefined) resolved.set(key, (code = resolver.resolve(country, state)));
    return code;
  };
}

/** The rows grouped by country, countries in code order, each country's rows in the order given. */
function inCountryOrder(rows: BranchRow[]): BranchRow[] {
  const byCountry = new Map<string, BranchRow[]>();
  for (const row of rows) {
    const group = byCountry.get(row.country);
    if (group) group.push(row);
    else byCountry.set(row.country, [row]);
  }
  return [...byCountry.keys()].sort().flatMap((country) => byCountry.get(country)!);
}

/** First line of each key; reports later lines as duplicates. */
function duplicateCheck(column: string, what: string) {
  const firstLine = new Map<string, number>();
  return (key: string, line: number): FileProblem[] => {
    if (!key) return [];
    const first = firstLine.get(key);
    if (first !== undefined)
      return [
        {
          line,
          column,
          value: key,
          rule: `${column}.duplicate`,
          reason: `duplicate ${what} ${key}: first given on line ${first}`,
        },
      ];
    firstLine.set(key, line);
    return [];
  };
}

const servedCountryCheck = (served: DataSet) => {
  const codes = new Set(served.countries.map((c) => c.code));
  return (country: string, line: number): FileProblem[] =>
    codes.has(country)
      ? []
      : [
          {
            line,
            column: 'country',
            value: country,
            rule: 'country.not-served',
            reason: `${country} is not a served receiving country (its partners must be imported first)`,
          },
        ];
};

const stateCheck =
  (resolve: (country: string, state: string) => string | null, column = 'state') =>
  (country: string, state: string, line: number): FileProblem[] =>
    !state || resolve(country, state)
      ? []
      : [
          {
            line,
            column,
            value: state,
            rule: `${column}.unknown`,
            reason: `"${state}" is not a state of ${country} (GET /v1/states?receivingCountry=${country})`,
          },
        ];

/** Sources of the other kinds stay as they are, with their import times. */
const otherSources = (served: DataSet, kind: ImportKind) => served.sources.filter((s) => s.kind !== kind);

export const branchesKind: ImportKindDefinition<BranchFileRecord> = {
  kind: 'branches',
  columns: fileColumns(BRANCH_TABLE),
  schema: branchRecord,
  scopeOf: (countries) => `the branches of ${countries.join(', ')}`,
  checksWholeFile: false,
  prepare(served) {
    const resolve = cachedStates(served);
    const banksOf = sortedBanks(served.branches);
    const routable = routability(served.headOffices, banksOf);
    const isServed = servedCountryCheck(served);
    const checkState = stateCheck(resolve);
    const duplicateRouting = duplicateCheck('routing_number', 'routing number');
    return {
      checkRow(r, line) {
        const problems = isServed(r.country, line);
        if (problems.length) return problems;
        problems.push(...checkState(r.country, r.state, line), ...duplicateRouting(r.routing_number, line));
        if (!routable(r.country, r.bank_code)) {
          problems.push({
            line,
            column: 'bank_code',
            value: r.bank_code,
            rule: 'bank_code.not-routable',
            reason: `bank ${r.bank_code} is not routable: no head office of ${r.country} offering delivery mode 04 pays into it (partners routes_to_banks)`,
          });
        }
        return problems;
      },
      row: (record) => toBranchRow(record, resolve),
      build(rows, source) {
        const replaced = new Set(rows.map((r) => r.record.country));
        const imported = rows.map((r) => toBranchRow(r.record, resolve));
        // The served order: by country, each country's rows in file order.
        const branches = inCountryOrder([...served.branches.filter((b) => !replaced.has(b.country)), ...imported]);
        const newBanksOf = sortedBanks(branches);
        const headOffices = served.headOffices.map((h) =>
          replaced.has(h.country) && routesToAllBanks(h, banksOf) ? { ...h, bankCodes: newBanksOf(h.country) } : h,
        );
        // A previous branch file that supplied other countries too stays listed for those, with their rows.
        const branchSources = served.sources
          .filter((s) => s.kind === 'branches')
          .flatMap((s) => {
            const kept = (s.countries ?? []).filter((c) => !replaced.has(c));
            if (kept.length === 0) return [];
            if (kept.length === s.countries!.length) return [s];
            return [{ ...s, countries: kept, rows: branches.filter((b) => kept.includes(b.country)).length }];
          });
        const countries = [...replaced].sort();
        // The replaced countries' cities follow their branches: a district's cities are filed under the division
        // its branches give (the new file's word over the served branches', which keep districts it leaves out).
        const cities = [
          ...served.cities.filter((c) => !replaced.has(c.country)),
          ...loadCitiesOf(
            served.states.filter((s) => replaced.has(s.country)),
            [...served.branches, ...imported],
          ),
        ];
        return {
          dataSet: {
            ...served,
            branches,
            cities,
            headOffices,
            sources: [...otherSources(served, 'branches'), ...branchSources, { ...source, countries }],
          },
          problems: [],
          scope: branchesKind.scopeOf(countries),
        };
      },
    };
  },
  cells(served) {
    return served.branches.map((b) => fileCells(BRANCH_TABLE, b));
  },
  cellsOf: () => (row) => fileCells(BRANCH_TABLE, row as BranchRow),
};

export const partnersKind: ImportKindDefinition<PartnerFileRecord> = {
  kind: 'partners',
  columns: [
    'country',
    'head_office_code',
    'head_office_name',
    'network_name',
    'payout_type',
    'delivery_modes',
    'routes_to_banks',
    'demo_locations',
  ],
  schema: partnerRecord,
  scopeOf: () => 'all partners (head offices)',
  checksWholeFile: true,
  prepare(served) {
    const duplicateOffice = duplicateCheck('head_office_code', 'head office code');
    const banksOf = sortedBanks(served.branches);
    return {
      checkRow: (r, line) => duplicateOffice(r.head_office_code, line),
      row: (record) => toHeadOfficeRow(record, banksOf),
      build(rows, source) {
        const headOffices = rows.map((r) => toHeadOfficeRow(r.record, banksOf));
        const lineOf = new Map(rows.map((r) => [r.record.head_office_code, r.line]));
        const problems: FileProblem[] = [];

        // Served agents must keep their head office, in their country.
        const office = new Map(headOffices.map((h) => [h.code, h]));
        const orphans = new Map<string, number>();
        for (const a of served.agents) {
          if (office.get(a.headOfficeCode)?.country !== a.country)
            orphans.set(a.headOfficeCode, (orphans.get(a.headOfficeCode) ?? 0) + 1);
        }
        for (const [code, count] of orphans) {
          problems.push({
            line: lineOf.get(code) ?? null,
            column: 'head_office_code',
            value: code,
            rule: office.has(code) ? 'head_office_code.agents-in-old-country' : 'head_office_code.agents-orphaned',
            reason: office.has(code)
              ? `head office ${code} changes country, but ${count} served agents are in the old one; import agents first`
              : `head office ${code} is left out, but ${count} served agents belong to it; import agents without them first`,
          });
        }
        // Served branches must stay routable (the branch reference rule).
        const routable = routability(headOffices, banksOf);
        const unroutable = new Map<string, number>();
        for (const b of served.branches) {
          const bank = `${b.country} bank ${b.bankCode}`;
          if (!routable(b.country, b.bankCode)) unroutable.set(bank, (unroutable.get(bank) ?? 0) + 1);
        }
        for (const [bank, count] of unroutable) {
          problems.push({
            line: null,
            column: 'routes_to_banks',
            value: null,
            rule: 'routes_to_banks.unroutable',
            reason: `no head office offering delivery mode 04 would pay into ${bank}, which has ${count} served branches`,
          });
        }

        const codes = [...new Set(headOffices.map((h) => h.country))].sort();
        const sameCountries = codes.join() === served.countries.map((c) => c.code).join();
        const places = sameCountries
          ? { countries: served.countries, states: served.states, cities: served.cities }
          : countriesOf(codes, served.branches);
        return {
          dataSet: { ...served, ...places, headOffices, sources: [...otherSources(served, 'partners'), source] },
          problems,
          scope: partnersKind.scopeOf([]),
        };
      },
    };
  },
  cells(served) {
    return served.headOffices.map(partnersKind.cellsOf(served));
  },
  cellsOf(served) {
    const banksOf = sortedBanks(served.branches);
    return (row) => {
      const h = row as HeadOfficeRow;
      return {
        country: h.country,
        head_office_code: h.code,
        head_office_name: h.name,
        network_name: h.networkName,
        payout_type: h.payoutType,
        delivery_modes: h.deliveryModes.map(deliveryModeCodeOf).join(' '),
        routes_to_banks: routesToAllBanks(h, banksOf) ? '*' : h.bankCodes.join(' '),
        demo_locations: String(h.demoLocations),
      };
    };
  },
};

export const agentsKind: ImportKindDefinition<AgentFileRecord> = {
  kind: 'agents',
  columns: fileColumns(AGENT_TABLE),
  schema: agentRecord,
  scopeOf: () => 'all agents',
  checksWholeFile: false,
  prepare(served) {
    const resolve = cachedStates(served);
    const offices = new Map(served.headOffices.map((h) => [h.code, h]));
    const isServed = servedCountryCheck(served);
    const checkState = stateCheck(resolve);
    const duplicateAgent = duplicateCheck('agent_code', 'agent code');
    const toAgentRow = (r: AgentFileRecord): AgentRow => ({
      agentCode: r.agent_code,
      headOfficeCode: r.head_office_code,
      country: r.country,
      agentName: r.agent_name,
      addressLine1: r.address_line1,
      addressLine2: r.address_line2 || null,
      city: r.city,
      state: resolve(r.country, r.state)!,
      publishedState: r.state,
      phoneNumber: r.phone_number || null,
    });
    return {
      checkRow(r, line) {
        const problems = [...duplicateAgent(r.agent_code, line), ...isServed(r.country, line)];
        const office = offices.get(r.head_office_code);
        if (!office)
          problems.push({
            line,
            column: 'head_office_code',
            value: r.head_office_code,
            rule: 'head_office_code.unknown',
            reason: `head office ${r.head_office_code} does not exist (import partners first)`,
          });
        else if (office.country !== r.country)
          problems.push({
            line,
            column: 'country',
            value: r.country,
            rule: 'country.head-office',
            reason: `head office ${office.code} is in ${office.country}, not ${r.country}`,
          });
        if (problems.some((p) => p.column === 'country')) return problems;
        problems.push(...checkState(r.country, r.state, line));
        if (r.phone_number && !parsePhoneNumberFromString(r.phone_number, r.country as CountryCode)?.isValid()) {
          problems.push({
            line,
            column: 'phone_number',
            value: r.phone_number,
            rule: 'phone_number.invalid',
            reason: `is not a valid phone number of ${r.country}`,
          });
        }
        return problems;
      },
      row: toAgentRow,
      build(rows, source) {
        const agents = rows.map(({ record }) => toAgentRow(record));
        return {
          dataSet: { ...served, agents, sources: [...otherSources(served, 'agents'), source] },
          problems: [],
          scope: agentsKind.scopeOf([]),
        };
      },
    };
  },
  cells(served) {
    return served.agents.map((a) => fileCells(AGENT_TABLE, a));
  },
  cellsOf: () => (row) => fileCells(AGENT_TABLE, row as AgentRow),
};

type AnyKindDefinition =
  | ImportKindDefinition<BranchFileRecord>
  | ImportKindDefinition<PartnerFileRecord>
  | ImportKindDefinition<AgentFileRecord>;

export const KIND_DEFINITIONS: Record<ImportKind, AnyKindDefinition> = {
  branches: branchesKind,
  partners: partnersKind,
  agents: agentsKind,
};
