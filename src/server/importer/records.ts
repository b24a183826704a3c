import { countries as isoCountries } from 'countries-list';
import type { PayoutType } from '../../contract';
import type { BranchRow, HeadOfficeRow } from '../domain/data-set';
import { countryProfile } from '../../contract/countries';
import { cityFromAddress } from '../domain/address-city';
import { loadCitiesOf, loadStates } from '../domain/places';
import { repairReplacementCharacters } from './repair-text';
import type { BranchFileRecord, PartnerFileRecord } from './row-schemas';

// From the rows of import files (as their row schemas parse them) to the data set's rows: what an import and the
// seed (which imports data/seed the same way) both build.

/** The bank codes of each country's branches, sorted: what `routes_to_banks = *` stands for. */
export const sortedBanks = (branches: BranchRow[]) => {
  const banks = new Map<string, Set<string>>();
  for (const b of branches) {
    if (!banks.has(b.country)) banks.set(b.country, new Set());
    banks.get(b.country)!.add(b.bankCode);
  }
  return (country: string) => [...(banks.get(country) ?? [])].sort();
};

const orNull = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : null);

/** A branch row of the file: its text repaired (repair-text.ts), its city placed from its address where the
 *  country's files give none (address-city.ts). */
export function toBranchRow(
  record: BranchFileRecord,
  resolveState: (country: string, state: string) => string | null,
): BranchRow {
  const text = (value: string) => repairReplacementCharacters(orNull(value));
  const state = resolveState(record.country, record.state);
  const branchName = repairReplacementCharacters(record.branch_name);
  const addressLine1 = text(record.address_line1);
  const city =
    text(record.city) ??
    (countryProfile(record.country).citiesFromAddress
      ? cityFromAddress(record.country, state, [addressLine1, branchName])
      : null);
  return {
    country: record.country,
    bankCode: record.bank_code,
    bankName: repairReplacementCharacters(record.bank_name),
    routingNumber: orNull(record.routing_number),
    branchName,
    addressLine1,
    addressLine2: text(record.address_line2),
    city,
    district: text(record.district),
    state,
    publishedState: orNull(record.state),
  };
}

/** `routes_to_banks`: `*` means every bank of that country in the branch files. */
export function toHeadOfficeRow(
  record: PartnerFileRecord,
  banksOfCountry: (country: string) => string[],
): HeadOfficeRow {
  const routes = record.routes_to_banks.trim();
  return {
    code: record.head_office_code,
    country: record.country,
    name: record.head_office_name,
    networkName: record.network_name,
    payoutType: record.payout_type as PayoutType,
    deliveryModes: record.delivery_modes.split(/\s+/).filter(Boolean).map(Number),
    bankCodes: routes === '*' ? banksOfCountry(record.country) : routes.split(/\s+/).filter(Boolean),
    demoLocations: Number(record.demo_locations || 0),
  };
}

/** Served countries (those with partners), their states and cities: the seed's, and a partner import's when the
 * country list changes. */
export function countriesOf(codes: string[], branches: Parameters<typeof loadCitiesOf>[1]) {
  const countries = codes.map((code) => {
    const info = isoCountries[code as keyof typeof isoCountries];
    return { code, name: info.name, currency: info.currency[0] };
  });
  const states = loadStates(codes);
  return { countries, states, cities: loadCitiesOf(states, branches) };
}
