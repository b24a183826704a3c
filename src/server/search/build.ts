import type { AgentRow, BranchRow, DataSet, DataSetVisitor } from '../domain/data-set';
import { branchBaseId, uniqueBranchIds } from '../domain/branch-id';
import { Dictionary, compareCodePoints, toStringTable } from './strings';
import { buildPostings, buildTrigramIndex } from './text-index';
import { codeHash, type BankEntry, type BankGroup, type OfficeEntry, type SearchIndexData } from './index-data';

// Builds the search index of one data set: plain data (typed arrays and string tables) that a worker thread
// builds and posts to the main thread without copying (the arrays' buffers are transferred).
//
// Rows are kept in answer order. Bank branches: country, bank name, branch name, id (the spec's answers and
// the stores' ORDER BY), so a country is one contiguous range of rows and a bank name another inside it.
// Agents: head office code, agent code, so a head office is one range. Every column is an Int32Array of ids
// into a string table of the column's distinct values (-1 for null); the searched columns also have a
// trigram index over their distinct texts and the rows of each text (postings).

/** A dictionary's ids renumbered in code-point order of the values: rank[id]. */
function ranks(values: readonly string[]): Int32Array {
  const order = values.map((_, id) => id).sort((x, y) => compareCodePoints(values[x], values[y]));
  const rank = new Int32Array(values.length);
  order.forEach((id, r) => (rank[id] = r));
  return rank;
}

/** The dictionary of the lower-cased values, and each original id's id in it. */
function lowerCased(values: readonly string[]): { values: string[]; of: Int32Array } {
  const lower = new Dictionary();
  return { of: Int32Array.from(values, (v) => lower.id(v.toLowerCase())), values: lower.values };
}

const remap = (ids: Int32Array, to: Int32Array) => ids.map((id) => (id < 0 ? -1 : to[id]));

/** An open-addressing table of rows by the hash of their code: slot value row + 1, 0 empty. */
function hashTable(codes: readonly (string | null)[]): Int32Array {
  const size = 2 ** Math.ceil(Math.log2(Math.max(2, codes.length * 2)));
  const table = new Int32Array(size);
  const mask = size - 1;
  codes.forEach((code, row) => {
    if (code === null) return;
    let slot = codeHash(code) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = row + 1;
  });
  return table;
}

/** Int32 values appended one at a time: half the memory of a JavaScript array of numbers, off the heap. */
class Int32Column {
  private values = new Int32Array(1 << 16);
  private length = 0;
  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
  /** The values appended so far (a view, no copy). */
  get view(): Int32Array {
    return this.values.subarray(0, this.length);
  }
}

/** Each Int32Column of `columns` as the view of its values; the other columns are left out. */
function columnViews<T extends object>(
  columns: T,
): { [K in keyof T as T[K] extends Int32Column ? K : never]: Int32Array } {
  return Object.fromEntries(
    Object.entries(columns).flatMap(([key, column]) => (column instanceof Int32Column ? [[key, column.view]] : [])),
  ) as never;
}

/**
 * Builds the index row by row, as a store's scan hands the rows over: each row becomes dictionary ids (the
 * strings of a row are garbage at once), then `finish` sorts the rows into answer order.
 */
export class SearchIndexBuilder implements DataSetVisitor {
  private countries: string[] = [];
  private states: DataSet['states'] = [];
  private offices: OfficeEntry[] = [];
  private officeIndex = new Map<string, number>();
  private readonly country = new Dictionary();
  private readonly bankCode = new Dictionary();
  private readonly bankName = new Dictionary();
  private readonly branchName = new Dictionary();
  private readonly addr1 = new Dictionary();
  private readonly addr2 = new Dictionary();
  private readonly district = new Dictionary();
  private readonly city = new Dictionary();
  private readonly state = new Dictionary();
  private readonly agentName = new Dictionary();
  private readonly agentAddr1 = new Dictionary();
  private readonly agentAddr2 = new Dictionary();
  private readonly phone = new Dictionary();
  private readonly bankOf = new Map<number, number>();
  private readonly banks: { country: number; code: number; name: number }[] = [];
  // Branch columns in load order (ids are the load order, 1-based, in both stores).
  private readonly b = {
    bank: new Int32Column(),
    branchName: new Int32Column(),
    routing: [] as (string | null)[],
    branchId: [] as string[],
    addr1: new Int32Column(),
    addr2: new Int32Column(),
    city: new Int32Column(),
    district: new Int32Column(),
    state: new Int32Column(),
  };
  private readonly a = {
    office: new Int32Column(),
    code: [] as string[],
    name: new Int32Column(),
    addr1: new Int32Column(),
    addr2: new Int32Column(),
    city: new Int32Column(),
    state: new Int32Column(),
    phone: new Int32Column(),
  };

  reference(parts: Pick<DataSet, 'countries' | 'states' | 'headOffices'>): void {
    this.countries = parts.countries.map((c) => c.code);
    this.states = parts.states.map(({ country, code, name }) => ({ country, code, name }));
    this.offices = [...parts.headOffices]
      .sort((x, y) => compareCodePoints(x.code, y.code))
      .map((h) => ({
        code: h.code,
        country: h.country,
        name: h.name,
        payoutType: h.payoutType,
        deliveryModes: [...h.deliveryModes].sort((x, y) => x - y),
        bankCodes: h.bankCodes,
        agentStart: 0,
        agentEnd: 0,
        nameMin: 0,
        nameMax: -1,
      }));
    this.officeIndex = new Map(this.offices.map((h, i) => [h.code, i]));
  }

  branch(row: BranchRow): void {
    const country = this.country.id(row.country);
    const code = this.bankCode.id(row.bankCode);
    const name = this.bankName.id(row.bankName);
    const key = (country * 2 ** 20 + code) * 2 ** 20 + name;
    let bank = this.bankOf.get(key);
    if (bank === undefined) {
      bank = this.banks.push({ country, code, name }) - 1;
      this.bankOf.set(key, bank);
    }
    const b = this.b;
    b.bank.push(bank);
    b.branchName.push(this.branchName.id(row.branchName));
    b.routing.push(row.routingNumber);
    b.branchId.push(branchBaseId(row));
    b.addr1.push(this.addr1.id(row.addressLine1));
    b.addr2.push(this.addr2.id(row.addressLine2));
    b.city.push(this.city.id(row.city));
    b.district.push(this.district.id(row.district));
    b.state.push(this.state.id(row.state));
  }

  agent(row: AgentRow): void {
    const office = this.officeIndex.get(row.headOfficeCode);
    // An agent is listed under its head office's country only (both stores ask for both to match).
    if (office === undefined || this.offices[office].country !== row.country) return;
    const a = this.a;
    a.office.push(office);
    a.code.push(row.agentCode);
    a.name.push(this.agentName.id(row.agentName));
    a.addr1.push(this.agentAddr1.id(row.addressLine1));
    a.addr2.push(this.agentAddr2.id(row.addressLine2));
    a.city.push(this.city.id(row.city));
    a.state.push(this.state.id(row.state));
    a.phone.push(this.phone.id(row.phoneNumber));
  }

  finish(version: string): SearchIndexData {
    const b = { ...this.b, ...columnViews(this.b) };
    const countries = [
      ...new Set([...this.countries, ...this.country.values, ...this.offices.map((h) => h.country)]),
    ].sort(compareCodePoints);
    const countryRank = Int32Array.from(this.country.values, (c) => countries.indexOf(c));

    // ---- Bank branches, in answer order: country, bank name, branch name, id.
    const n = b.bank.length;
    const bankNameRank = ranks(this.bankName.values);
    const branchNameRank = ranks(this.branchName.values);
    const bankOfRow = Int32Array.from(b.bank);
    const bankCountry = Int32Array.from(this.banks, (bank) => countryRank[bank.country]);
    const bankNameOrder = Int32Array.from(this.banks, (bank) => bankNameRank[bank.name]);
    const nameRank = remap(Int32Array.from(b.branchName), branchNameRank);
    const order = new Int32Array(n).map((_, i) => i);
    order.sort((x, y) => {
      const bx = bankOfRow[x];
      const by = bankOfRow[y];
      return (
        bankCountry[bx] - bankCountry[by] || bankNameOrder[bx] - bankNameOrder[by] || nameRank[x] - nameRank[y] || x - y
      );
    });
    const permuted = (column: number[] | Int32Array) => Int32Array.from(order, (i) => column[i]);

    const banks: BankEntry[] = this.banks.map((bank) => ({
      country: this.country.values[bank.country],
      code: this.bankCode.values[bank.code],
      name: this.bankName.values[bank.name],
      group: -1,
    }));
    const bankGroups: BankGroup[] = [];
    const countryStart = new Int32Array(countries.length).fill(n);
    const countryEnd = new Int32Array(countries.length).fill(n);
    const bank = permuted(bankOfRow);
    for (let row = 0; row < n; row++) {
      const entry = banks[bank[row]];
      const c = bankCountry[bank[row]];
      const previous = row > 0 ? banks[bank[row - 1]] : undefined;
      if (!previous || previous.country !== entry.country) countryStart[c] = row;
      countryEnd[c] = row + 1;
      if (!previous || previous.country !== entry.country || previous.name !== entry.name) {
        bankGroups.push({ country: entry.country, start: row, end: row, banks: [] });
      }
      const group = bankGroups[bankGroups.length - 1];
      group.end = row + 1;
      if (entry.group < 0) {
        entry.group = bankGroups.length - 1;
        group.banks.push(bank[row]);
      }
    }
    for (let c = 0; c < countries.length; c++) if (countryStart[c] === n) countryEnd[c] = n;

    // Branch names in code-point order (their ids are their ranks); lower-cased copies of the searched columns.
    const branchNames = Array.from(this.branchName.values);
    this.branchName.values.forEach((value, id) => (branchNames[branchNameRank[id]] = value));
    const addr1 = Int32Array.from(order, (i) => b.addr1[i]);
    const addr2 = Int32Array.from(order, (i) => b.addr2[i]);
    const district = Int32Array.from(order, (i) => b.district[i]);
    const addr1Lower = lowerCased(this.addr1.values);
    const addr2Lower = lowerCased(this.addr2.values);
    const districtLower = lowerCased(this.district.values);
    const routing = Array.from(order, (i) => b.routing[i]);
    // Branch ids (domain/branch-id.ts): a repeated one is told apart in answer order.
    const branchIds = uniqueBranchIds(Array.from(order, (i) => b.branchId[i]));
    const branches = {
      count: n,
      id: order.map((i) => i + 1),
      bank,
      branchName: Int32Array.from(order, (i) => nameRank[i]),
      addr1,
      addr1Lower: remap(addr1, addr1Lower.of),
      addr2,
      addr2Lower: remap(addr2, addr2Lower.of),
      city: permuted(b.city),
      district,
      districtLower: remap(district, districtLower.of),
      state: permuted(b.state),
    };

    // ---- Agents, in answer order: head office code, agent code.
    const a = { ...this.a, ...columnViews(this.a) };
    const agentOrder = a.office.map((_, i) => i);
    agentOrder.sort((x, y) => a.office[x] - a.office[y] || compareCodePoints(a.code[x], a.code[y]));
    const m = agentOrder.length;
    const agentColumn = (column: Int32Array) => Int32Array.from(agentOrder, (i) => column[i]);
    // Agent names numbered in answer order (first row holding each), so that a head office's names are one
    // narrow span of ids: the names a search matched inside a head office are a slice of the matched ids.
    const agentNameRank = new Int32Array(this.agentName.values.length).fill(-1);
    const agentNames: string[] = [];
    for (const i of agentOrder) {
      if (agentNameRank[a.name[i]] < 0)
        agentNameRank[a.name[i]] = agentNames.push(this.agentName.values[a.name[i]]) - 1;
    }
    const agents = {
      count: m,
      office: agentColumn(a.office),
      name: Int32Array.from(agentOrder, (i) => agentNameRank[a.name[i]]),
      addr1: agentColumn(a.addr1),
      addr2: agentColumn(a.addr2),
      city: agentColumn(a.city),
      state: agentColumn(a.state),
      phone: agentColumn(a.phone),
    };
    for (let row = 0; row < m; row++) {
      const office = this.offices[agents.office[row]];
      if (row === 0 || agents.office[row - 1] !== agents.office[row]) {
        office.agentStart = row;
        office.nameMin = agents.name[row];
        office.nameMax = agents.name[row];
      }
      office.agentEnd = row + 1;
      office.nameMin = Math.min(office.nameMin, agents.name[row]);
      office.nameMax = Math.max(office.nameMax, agents.name[row]);
    }
    const agentCodes = Array.from(agentOrder, (i) => a.code[i]);

    return {
      version,
      countries,
      countryStart,
      countryEnd,
      states: this.states,
      offices: this.offices,
      banks,
      bankGroups,
      branches,
      agents,
      tables: {
        branchName: toStringTable(branchNames),
        routing: toStringTable(routing.map((r) => r ?? '')),
        branchId: toStringTable(branchIds),
        addr1: toStringTable(this.addr1.values),
        addr1Lower: toStringTable(addr1Lower.values),
        addr2: toStringTable(this.addr2.values),
        addr2Lower: toStringTable(addr2Lower.values),
        city: toStringTable(this.city.values),
        district: toStringTable(this.district.values),
        districtLower: toStringTable(districtLower.values),
        state: toStringTable(this.state.values),
        agentCode: toStringTable(agentCodes),
        agentName: toStringTable(agentNames),
        agentAddr1: toStringTable(this.agentAddr1.values),
        agentAddr2: toStringTable(this.agentAddr2.values),
        phone: toStringTable(this.phone.values),
      },
      hashes: { routing: hashTable(routing), branchId: hashTable(branchIds), agentCode: hashTable(agentCodes) },
      trigrams: {
        branchName: buildTrigramIndex(branchNames),
        addr1Lower: buildTrigramIndex(addr1Lower.values),
        addr2Lower: buildTrigramIndex(addr2Lower.values),
        districtLower: buildTrigramIndex(districtLower.values),
        agentName: buildTrigramIndex(agentNames),
      },
      postings: {
        branchName: buildPostings(branches.branchName, branchNames.length),
        addr1Lower: buildPostings(branches.addr1Lower, addr1Lower.values.length),
        addr2Lower: buildPostings(branches.addr2Lower, addr2Lower.values.length),
        districtLower: buildPostings(branches.districtLower, districtLower.values.length),
        agentName: buildPostings(agents.name, agentNames.length),
        agentState: buildPostings(agents.state, this.state.values.length),
      },
    };
  }
}

/** The index of a data set held whole (inline builds, tests). */
export function buildSearchIndex(dataSet: DataSet, version: string): SearchIndexData {
  const builder = new SearchIndexBuilder();
  builder.reference(dataSet);
  for (const row of dataSet.branches) builder.branch(row);
  for (const row of dataSet.agents) builder.agent(row);
  return builder.finish(version);
}
