import type { BankBranch, BankFacet, BrowseQuery, BrowseResponse, CityFacet, StateFacet } from '../../contract';
import { pageOf } from '../store/store';
import type { IndexView } from './search-index';
import { placeFilters } from './index-data';

// Browse to find: a head office's branches narrowed bank → state → city, each level listed with
// its branch count. One pass over the rows of the head office's banks in answer order counts every level and
// keeps the page, so the counts and the page come from the same rows:
//   banks  — rows matching the text filters (bankName, branchLocation, address, district);
//   states — those also matching bankCode (a bank code or a routing number, as GET /v1/banks/branches);
//   cities — those also in the state;
//   page   — those also in the city.
// The text filters are the branch finder's own (the index's matching texts, place names under either name),
// so a bank's count is the branch finder's totalItems for that bankCode and the same filters.

export type BrowseSearch = Required<Pick<BrowseQuery, 'pageNumber' | 'pageSize'>> &
  Omit<BrowseQuery, 'pageNumber' | 'pageSize'>;

const emptyAnswer = (search: BrowseSearch): BrowseResponse => ({
  ...pageOf<BankBranch>([], 0, search.pageNumber, search.pageSize),
  facets: { banks: [], states: [], cities: [] },
});

const byName = (x: { name: string }, y: { name: string }) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);

export function browseBranches(view: IndexView, search: BrowseSearch): BrowseResponse {
  const { data, tables } = view;
  const country = data.countries.indexOf(search.receivingCountry);
  const office = data.offices.find((o) => o.code === search.receivingAgentHeadOfficeCode);
  if (
    !office ||
    country < 0 ||
    office.country !== search.receivingCountry ||
    !office.deliveryModes.includes(search.deliveryMode)
  ) {
    return emptyAnswer(search);
  }
  // Banks in scope: the head office's, with the bank-name filter (case-insensitive contains).
  const bankTerm = search.bankName?.toLowerCase();
  const inScope = data.banks.map(
    (bank) =>
      bank.country === search.receivingCountry &&
      office.bankCodes.includes(bank.code) &&
      (bankTerm === undefined || bank.name.toLowerCase().includes(bankTerm)),
  );
  // Contains filters on places: the ids of the matching lower-cased texts, as flags by id.
  const texts: { column: Int32Array; ok: Uint8Array }[] = [];
  for (const [name, term] of placeFilters(search)) {
    if (term === undefined) continue;
    const ok = new Uint8Array(tables[name].size);
    for (const id of view.matchingPlaces(name, search.receivingCountry, term)) ok[id] = 1;
    texts.push({ column: data.branches[name], ok });
  }
  // bankCode as the branch finder reads it: the bank's code, or a routing number (rows from the hash table).
  const code = search.bankCode;
  const codeBanks = data.banks.map((bank) => code === undefined || bank.code === code);
  const routed = new Set(code === undefined ? [] : view.routedRows(code));
  const stateId = search.state === undefined ? -1 : idOf(tables.state, search.state);
  const city = search.city?.toLowerCase();

  // Counts in typed arrays by id (banks, states); places by key: city id, or -2 - district id where the row
  // has no city (Bangladesh: the district is the second level).
  const columns = data.branches;
  const bankCounts = new Int32Array(data.banks.length);
  const stateCounts = new Int32Array(tables.state.size);
  const cityCounts = new Map<number, number>();
  const cityMatches = new Map<number, boolean>();
  const offset = (search.pageNumber - 1) * search.pageSize;
  const rows: number[] = [];
  let total = 0;
  // Without text filters the bank and state counts come from the rows by bank and state (made once per index),
  // so only the rows of the chosen bank (or code) are read, for the page and the cities; and without a state
  // or city the total is known too, and reading stops once the page is full.
  const counted = texts.length === 0;
  let knownTotal = -1;
  if (counted) {
    const byBankState = view.bankStateCounts();
    const width = tables.state.size + 1;
    let matching = 0;
    for (let b = 0; b < data.banks.length; b++) {
      if (!inScope[b]) continue;
      for (let s = 0; s < width; s++) {
        const n = byBankState[b * width + s];
        bankCounts[b] += n;
        if (codeBanks[b] && s < width - 1) stateCounts[s] += n;
        if (codeBanks[b]) matching += n;
      }
    }
    for (const row of routed) {
      const b = columns.bank[row];
      if (!inScope[b] || codeBanks[b]) continue;
      matching++;
      if (columns.state[row] >= 0) stateCounts[columns.state[row]]++;
    }
    if (search.state === undefined && city === undefined) knownTotal = matching;
  }
  const routedRows = [...routed];
  scan: for (const group of data.bankGroups) {
    if (group.country !== search.receivingCountry || !group.banks.some((b) => inScope[b])) continue;
    if (
      counted &&
      !group.banks.some((b) => inScope[b] && codeBanks[b]) &&
      !routedRows.some((r) => r >= group.start && r < group.end)
    )
      continue;
    rows: for (let row = group.start; row < group.end; row++) {
      const b = columns.bank[row];
      if (!inScope[b]) continue;
      for (const text of texts) if (text.ok[text.column[row]] !== 1) continue rows;
      if (!counted) bankCounts[b]++;
      if (!codeBanks[b] && !routed.has(row)) continue;
      const state = columns.state[row];
      if (state >= 0 && !counted) stateCounts[state]++;
      if (search.state !== undefined && state !== stateId) continue;
      const place =
        columns.city[row] >= 0 ? columns.city[row] : columns.district[row] >= 0 ? -2 - columns.district[row] : -1;
      if (search.state !== undefined && place !== -1) cityCounts.set(place, (cityCounts.get(place) ?? 0) + 1);
      if (city !== undefined) {
        if (place === -1) continue;
        let match = cityMatches.get(place);
        if (match === undefined) cityMatches.set(place, (match = placeName(view, place).toLowerCase() === city));
        if (!match) continue;
      }
      if (total >= offset && rows.length < search.pageSize) rows.push(row);
      total++;
      if (knownTotal >= 0 && total >= offset + search.pageSize) break scan;
    }
  }
  if (knownTotal >= 0) total = knownTotal;

  // A bank code with more than one name in the country (renamed banks) is one facet, under its first name.
  const byCode = new Map<string, BankFacet>();
  bankCounts.forEach((count, b) => {
    if (count === 0) return;
    const bank = data.banks[b];
    const facet = byCode.get(bank.code);
    if (facet) facet.count += count;
    else byCode.set(bank.code, { bankCode: bank.code, bankName: bank.name, count });
  });
  const banks = [...byCode.values()];
  banks.sort(
    (x, y) => byName({ name: x.bankName }, { name: y.bankName }) || byName({ name: x.bankCode }, { name: y.bankCode }),
  );
  const states: StateFacet[] = [];
  stateCounts.forEach((count, id) => {
    if (count === 0) return;
    const stateCode = tables.state.get(id);
    states.push({ code: stateCode, name: view.stateName(search.receivingCountry, stateCode) ?? stateCode, count });
  });
  states.sort(byName);
  const cities: CityFacet[] = [...cityCounts].map(([place, count]) => ({ name: placeName(view, place), count }));
  cities.sort(byName);
  const page = pageOf(
    rows.map((row) => view.branchRecord(row, office.code)),
    total,
    search.pageNumber,
    search.pageSize,
  );
  return { ...page, facets: { banks, states, cities } };
}

function placeName(view: IndexView, place: number): string {
  return place >= 0 ? view.tables.city.get(place) : view.tables.district.get(-2 - place);
}

function idOf(table: IndexView['tables']['state'], value: string): number {
  for (let id = 0; id < table.size; id++) if (table.get(id) === value) return id;
  return -2;
}
