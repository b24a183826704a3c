import {
  Faker,
  base,
  en,
  en_IN,
  en_NG,
  es,
  es_MX,
  vi,
} from '@faker-js/faker';
import { getExampleNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import type { AgentRow, CityRow, HeadOfficeRow, StateRow } from './data-set';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../contract';

// Agent locations are not published (data/seed/SOURCES.md): they are generated here from partners.csv and
// the real states and cities of each country. The same seed gives the same rows, always: one Faker per
// country, seeded from the seed and the country code, and partners and cities walked in a fixed order.

const LOCALES: Record<string, Faker['rawDefinitions'][]> = {
  MX: [es_MX, es], GT: [es], SV: [es], HN: [es], DO: [es], CO: [es],
  IN: [en_IN], BD: [en_IN], PK: [en_IN], NP: [en_IN], NG: [en_NG], VN: [vi], PH: [en], KE: [en],
};

export const DEFAULT_AGENT_SEED = 20_260_101;

function seedOf(seed: number, text: string): number {
  let hash = seed >>> 0;
  for (const ch of text) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

// Parsed once per country: parsing the example for every location was half of generating it.
const exampleNumbers = new Map<string, ReturnType<typeof getExampleNumber>>();
const exampleNumberOf = (country: string) => {
  if (!exampleNumbers.has(country)) exampleNumbers.set(country, getExampleNumber(country as CountryCode, examples));
  return exampleNumbers.get(country);
};

/** A valid mobile number of the country in international format: the country's example with fresh digits. */
function phoneNumber(faker: Faker, country: string): string {
  const example = exampleNumberOf(country);
  if (!example) return faker.phone.number();
  const national = example.nationalNumber;
  const keep = Math.max(2, national.length - 6);
  for (let attempt = 0; attempt < 10; attempt++) {
    const candidate = national.slice(0, keep) + faker.string.numeric(national.length - keep);
    const parsed = parsePhoneNumberFromString(candidate, country as CountryCode);
    if (parsed?.isValid()) return parsed.formatInternational();
  }
  return example.formatInternational();
}

/**
 * faker.helpers.weightedArrayElement with the running sums computed once: the same draw from the same
 * random number (same sums in the same order), by binary search instead of a walk over every city.
 * Generated data sets (scripts/gen.ts) draw hundreds of thousands of locations from thousands of cities.
 */
function weightedDraw<T>(faker: Faker, items: { value: T; weight: number }[]): () => T {
  const sums: number[] = [];
  let sum = 0;
  for (const { weight } of items) sums.push((sum += weight));
  const total = items.reduce((acc, { weight }) => acc + weight, 0);
  return () => {
    const random = faker.number.float({ min: 0, max: total });
    let low = 0;
    let high = sums.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (random < sums[middle]) high = middle;
      else low = middle + 1;
    }
    return items[Math.min(low, items.length - 1)].value;
  };
}

export function generateAgents(
  headOffices: HeadOfficeRow[],
  states: StateRow[],
  cities: CityRow[],
  seed = DEFAULT_AGENT_SEED,
): AgentRow[] {
  const stateNames = new Map(states.map((s) => [`${s.country}:${s.code}`, s.name]));
  const citiesOf = new Map<string, CityRow[]>();
  for (const city of [...cities].sort((a, b) => (a.state + a.name).localeCompare(b.state + b.name))) {
    const list = citiesOf.get(city.country) ?? [];
    list.push(city);
    citiesOf.set(city.country, list);
  }
  const agents: AgentRow[] = [];
  for (const office of [...headOffices].sort((a, b) => a.code.localeCompare(b.code))) {
    const modes = office.deliveryModes.filter((m) => m !== ACCOUNT_TRANSFER_TO_OTHER_BANK);
    const places = citiesOf.get(office.country) ?? [];
    if (modes.length === 0 || places.length === 0 || office.demoLocations <= 0) continue;
    const faker = new Faker({ locale: [...(LOCALES[office.country] ?? [en]), en, base] });
    faker.seed(seedOf(seed, office.code));
    const perCity = new Map<string, number>();
    // Bigger places get more locations: the first cities of each state are drawn more often.
    const drawPlace = weightedDraw(faker, places.map((value, index) => ({ value, weight: 1 + 4 / (1 + (index % 25)) })));
    for (let i = 1; i <= office.demoLocations; i++) {
      const place = drawPlace();
      const count = (perCity.get(place.name) ?? 0) + 1;
      perCity.set(place.name, count);
      const stateName = stateNames.get(`${office.country}:${place.state}`) ?? place.state;
      agents.push({
        agentCode: `${office.code}${String(i).padStart(5, '0')}`,
        headOfficeCode: office.code,
        country: office.country,
        agentName: count === 1 ? `${office.networkName} ${place.name}` : `${office.networkName} ${place.name} ${count}`,
        // The locale's own street-address format: Spanish puts the number after the street ("Calle Reforma 45"),
        // and its building numbers carry their own separator (", 70"), so number-then-street gave ", 70 Calle …".
        addressLine1: faker.location.streetAddress().replace(/\s+/g, ' ').trim(),
        addressLine2: `${place.name}, ${stateName}`,
        city: place.name,
        state: place.state,
        publishedState: place.state,
        phoneNumber: phoneNumber(faker, office.country),
      });
    }
  }
  return agents;
}
