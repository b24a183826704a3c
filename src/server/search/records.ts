import type { ChangeKind, OpsPage } from '../../contract/ops-changes';
import type { RecordFields, RecordMatch } from '../../contract/ops-records';
import { AGENT_TABLE, BRANCH_TABLE, fieldsOf } from '../domain/kind-columns';
import type { OfficeEntry } from './index-data';
import type { IndexView } from './search-index';

// The operations desk's search over the published records (GET /v1/ops/records) and one record by its natural
// key (GET /v1/ops/records/{kind}/{key}), answered from the search index of the served data version. A query is
// a code found exactly through the index's hash tables (routing number / IFSC, agent code), or a bank or head
// office code, or a part of a name, bank name, city, district or address line 1: the few texts that hold it are
// found first (the index's trigram indexes, or the small tables of banks and cities), then one pass over the
// rows' id columns (of the country, when one is given) keeps the rows holding one of them, in answer order.

export interface RecordsSearch {
  kind: ChangeKind;
  q?: string;
  country?: string;
  pageNumber: number;
  pageSize: number;
}

/** A found record: its key parts (natural key), its list entry, and its fields as served. */
export interface FoundRecord {
  parts: string[];
  match: Omit<RecordMatch, 'key'>;
}

type Page = OpsPage<FoundRecord>;

const pageOf = (data: FoundRecord[], total: number, search: RecordsSearch): Page => ({
  data,
  pagination: {
    pageNumber: search.pageNumber,
    pageSize: search.pageSize,
    totalItems: total,
    totalPages: Math.ceil(total / search.pageSize),
  },
});

/** 1 at each id of `ids` (a set of text ids, for the pass over the rows). */
function flags(size: number, ...lists: ArrayLike<number>[]): Uint8Array {
  const set = new Uint8Array(size);
  for (const ids of lists) for (let i = 0; i < ids.length; i++) set[ids[i]] = 1;
  return set;
}

/** The term as typed, upper-cased, lower-cased and capitalised word by word (names are kept as written). */
const spellings = (term: string) => [
  ...new Set([
    term,
    term.toUpperCase(),
    term.toLowerCase(),
    term
      .toLowerCase()
      .replace(/(^|[\s(.,-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()),
  ]),
];

type Table = IndexView['tables'][keyof IndexView['tables']];
/** A table's values lower-cased, once per table (an index version's tables live as long as it serves). */
const lowered = new WeakMap<Table, string[]>();

/** Ids of a small table's values containing the term, any case. */
function containing(table: Table, term: string): number[] {
  let values = lowered.get(table);
  if (!values) {
    values = Array.from({ length: table.size }, (_, id) => table.get(id).toLowerCase());
    lowered.set(table, values);
  }
  const lower = term.toLowerCase();
  const ids: number[] = [];
  for (let id = 0; id < values.length; id++) if (values[id].includes(lower)) ids.push(id);
  return ids;
}

/** Pages `rows` (answer order) kept by `keep`: the total, and the page's records. */
function pageRows(
  from: number,
  to: number,
  keep: (row: number) => boolean,
  record: (row: number) => FoundRecord,
  search: RecordsSearch,
): Page {
  const offset = (search.pageNumber - 1) * search.pageSize;
  const rows: number[] = [];
  let total = 0;
  for (let row = from; row < to; row++) {
    if (!keep(row)) continue;
    if (total >= offset && rows.length < search.pageSize) rows.push(row);
    total++;
  }
  return pageOf(rows.map(record), total, search);
}

/** Pages rows already found (answer order). */
function pageList(rows: number[], record: (row: number) => FoundRecord, search: RecordsSearch): Page {
  const offset = (search.pageNumber - 1) * search.pageSize;
  return pageOf(rows.slice(offset, offset + search.pageSize).map(record), rows.length, search);
}

// ---------------------------------------------------------------------------------------------------------
// Branches

export function branchFields(view: IndexView, row: number): RecordFields {
  const b = view.branchRecord(row, '');
  return fieldsOf(BRANCH_TABLE, {
    ...b,
    country: b.receivingCountry,
    addressLine1: b.branchLocation,
    addressLine2: b.address,
  });
}

/** A branch's natural key (domain/natural-keys.ts): country and routing number, else bank, name and address. */
const branchParts = (f: RecordFields): string[] =>
  f.routingNumber ? [f.country!, f.routingNumber] : [f.country!, f.bankCode!, f.branchName!, f.addressLine1 ?? ''];

function foundBranch(view: IndexView, row: number): FoundRecord {
  const f = branchFields(view, row);
  return {
    parts: branchParts(f),
    match: {
      kind: 'branches',
      country: f.country!,
      code: f.routingNumber,
      name: f.branchName!,
      bankCode: f.bankCode,
      bankName: f.bankName,
      city: f.city ?? f.district,
    },
  };
}

/** The rows of a country (all rows without one); none for a country the data set does not serve. */
function countryRows(view: IndexView, country: string | undefined): [number, number] {
  if (!country) return [0, view.data.branches.count];
  const c = view.data.countries.indexOf(country);
  return c < 0 ? [0, 0] : [view.data.countryStart[c], view.data.countryEnd[c]];
}

function searchBranches(view: IndexView, search: RecordsSearch): Page {
  const [from, to] = countryRows(view, search.country);
  const q = search.q;
  if (!q)
    return pageRows(
      from,
      to,
      () => true,
      (row) => foundBranch(view, row),
      search,
    );
  const c = view.data.branches;
  const t = view.tables;
  const code = q.replace(/\s+/g, '').toUpperCase();
  const routed = new Set([...view.routedRows(code), ...view.routedRows(q)]);
  const lower = q.toLowerCase();
  const banks = new Uint8Array(view.data.banks.length);
  view.data.banks.forEach((bank, b) => {
    if (bank.code === code || bank.name.toLowerCase().includes(lower)) banks[b] = 1;
  });
  const nameIds = spellings(q).map((term) => view.matchingText('branchName', term));
  const cityIds = containing(t.city, q);
  const country = search.country ?? '';
  const placeIds = view.matchingPlaces('addr1Lower', country, q);
  const districtIds = view.matchingPlaces('districtLower', country, q);
  // A code (a routing number or IFSC) is in no name, bank, city, district or street: its rows are found through
  // the hash table alone, without the pass over every row (the same rows, in the same answer order).
  if (!banks.includes(1) && [...nameIds, cityIds, placeIds, districtIds].every((ids) => ids.length === 0))
    return pageList(
      [...routed].filter((row) => row >= from && row < to).sort((a, b) => a - b),
      (row) => foundBranch(view, row),
      search,
    );
  // One tight pass per column some text matched (most terms are in one or two), marking the rows that hold it:
  // the same rows as testing every condition row by row, in the same answer order, at a fraction of the time.
  const hit = new Uint8Array(to - from);
  const mark = (column: Int32Array, ids: ArrayLike<number>[], size: number) => {
    if (ids.every((list) => list.length === 0)) return;
    const set = flags(size, ...ids);
    for (let row = from; row < to; row++) {
      const id = column[row];
      if (id >= 0 && set[id] === 1) hit[row - from] = 1;
    }
  };
  if (banks.includes(1)) for (let row = from; row < to; row++) if (banks[c.bank[row]] === 1) hit[row - from] = 1;
  mark(c.branchName, nameIds, t.branchName.size);
  mark(c.city, [cityIds], t.city.size);
  mark(c.addr1Lower, [placeIds], t.addr1Lower.size);
  mark(c.districtLower, [districtIds], t.districtLower.size);
  for (const row of routed) if (row >= from && row < to) hit[row - from] = 1;
  const offset = (search.pageNumber - 1) * search.pageSize;
  const rows: number[] = [];
  let total = 0;
  for (let i = 0; i < hit.length; i++) {
    if (hit[i] === 0) continue;
    if (total >= offset && rows.length < search.pageSize) rows.push(from + i);
    total++;
  }
  return pageOf(
    rows.map((row) => foundBranch(view, row)),
    total,
    search,
  );
}

/** The served branch with these key parts, or null. */
function branchByKey(view: IndexView, parts: string[]): RecordFields | null {
  if (parts.length === 2) {
    for (const row of view.routedRows(parts[1])) {
      const f = branchFields(view, row);
      if (f.country === parts[0]) return f;
    }
    return null;
  }
  if (parts.length !== 4) return null;
  const [country, bankCode, branchName, addressLine1] = parts;
  const groups = new Set(
    view.data.banks.filter((b) => b.country === country && b.code === bankCode).map((b) => b.group),
  );
  for (const g of groups) {
    const group = view.data.bankGroups[g];
    for (let row = group.start; row < group.end; row++) {
      const f = branchFields(view, row);
      if (
        f.bankCode === bankCode &&
        !f.routingNumber &&
        f.branchName === branchName &&
        (f.addressLine1 ?? '') === addressLine1
      )
        return f;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Agents

export function agentFields(view: IndexView, row: number): RecordFields {
  const a = view.agentRecord(row);
  return fieldsOf(AGENT_TABLE, { ...a, headOfficeCode: a.receivingAgentHeadOfficeCode, country: a.receivingCountry });
}

function foundAgent(view: IndexView, row: number): FoundRecord {
  const f = agentFields(view, row);
  const office = view.data.offices[view.data.agents.office[row]];
  return {
    parts: [f.agentCode!],
    match: {
      kind: 'agents',
      country: f.country!,
      code: f.agentCode,
      name: f.agentName!,
      bankCode: office.code,
      bankName: office.name,
      city: f.city,
    },
  };
}

function searchAgents(view: IndexView, search: RecordsSearch): Page {
  const c = view.data.agents;
  const t = view.tables;
  const inCountry = flags(
    view.data.offices.length,
    view.data.offices.flatMap((o, i) => (!search.country || o.country === search.country ? [i] : [])),
  );
  const q = search.q;
  if (!q)
    return pageRows(
      0,
      c.count,
      (row) => inCountry[c.office[row]] === 1,
      (row) => foundAgent(view, row),
      search,
    );
  const code = q.replace(/\s+/g, '').toUpperCase();
  const coded = new Set([...view.agentRows(code), ...view.agentRows(q)]);
  const lower = q.toLowerCase();
  const offices = flags(
    view.data.offices.length,
    view.data.offices.flatMap((o, i) => (o.code === code || o.name.toLowerCase().includes(lower) ? [i] : [])),
  );
  const names = flags(t.agentName.size, ...spellings(q).map((term) => view.matchingText('agentName', term)));
  const cities = flags(t.city.size, containing(t.city, q));
  return pageRows(
    0,
    c.count,
    (row) =>
      inCountry[c.office[row]] === 1 &&
      (offices[c.office[row]] === 1 ||
        names[c.name[row]] === 1 ||
        (c.city[row] >= 0 && cities[c.city[row]] === 1) ||
        (coded.size > 0 && coded.has(row))),
    (row) => foundAgent(view, row),
    search,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Head offices (partners)

function searchOffices(view: IndexView, search: RecordsSearch): Page {
  const q = search.q?.toLowerCase();
  const code = search.q?.replace(/\s+/g, '').toUpperCase();
  const found = view.data.offices.filter(
    (o) =>
      (!search.country || o.country === search.country) &&
      (!q || o.code === code || o.name.toLowerCase().includes(q) || o.code.toLowerCase().includes(q)),
  );
  const offset = (search.pageNumber - 1) * search.pageSize;
  return pageOf(
    found.slice(offset, offset + search.pageSize).map((o) => ({
      parts: [o.code],
      match: {
        kind: 'partners',
        country: o.country,
        code: o.code,
        name: o.name,
        bankCode: null,
        bankName: null,
        city: null,
      },
    })),
    found.length,
    search,
  );
}

// ---------------------------------------------------------------------------------------------------------

export function searchRecords(view: IndexView, search: RecordsSearch): Page {
  if (search.kind === 'branches') return searchBranches(view, search);
  if (search.kind === 'agents') return searchAgents(view, search);
  return searchOffices(view, search);
}

/**
 * The served record of a kind with these key parts: its fields (a head office's without the store's two
 * columns: `office` is then given), or null when the served data holds none.
 */
export function recordByKey(
  view: IndexView,
  kind: ChangeKind,
  parts: string[],
): { fields: RecordFields } | { office: OfficeEntry } | null {
  if (kind === 'branches') {
    const fields = branchByKey(view, parts);
    return fields && { fields };
  }
  if (parts.length !== 1) return null;
  if (kind === 'agents') {
    const [row] = view.agentRows(parts[0]);
    return row === undefined ? null : { fields: agentFields(view, row) };
  }
  const office = view.data.offices.find((o) => o.code === parts[0]);
  return office ? { office } : null;
}
