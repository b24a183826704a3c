import { Faker, allLocales, base, en } from '@faker-js/faker';
import { getExampleNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { readFileSync } from 'node:fs';
import type { AgentRow, CityRow, HeadOfficeRow, StateRow } from '../domain/data-set';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK, countryProfile } from '../../contract';

// Agent locations are not published (data/seed/SOURCES.md): they are generated here from partners.csv and
// the real states and cities of each country. The same seed gives the same rows, always: one Faker per
// country, seeded from the seed and the country code, and partners and cities walked in a fixed order.

/** The Faker locales of the country's profile (countries.ts; English without one). */
const localesOf = (country: string) =>
  countryProfile(country).fakerLocales?.map((name) => allLocales[name as keyof typeof allLocales]) ?? [en];

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
function mobileNumber(faker: Faker, country: string): string {
  const example = exampleNumberOf(country);
  if (!example) return faker.phone.number();
  const national = example.nationalNumber;
  const keep = Math.max(2, national.length - 6);
  let fallback = example.formatInternational();
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = national.slice(0, keep) + faker.string.numeric(national.length - keep);
    const parsed = parsePhoneNumberFromString(candidate, country as CountryCode);
    if (!parsed?.isValid()) continue;
    // A number that names another place would say the agent is elsewhere: a non-geographic one is kept.
    if (!areaOf(country, parsed.nationalNumber)) return parsed.formatInternational();
    fallback = parsed.formatInternational();
  }
  return fallback;
}

// Area codes: the place each prefix of a country's numbers is assigned to (Google libphonenumber's geocoding
// data; phone-areas.json says where from). An agent gets a number of its own city's area when the plan has one,
// else of an area of its state, else (no geographic numbering known there) a mobile number.
const PHONE_PLAN = JSON.parse(readFileSync(new URL('./phone-areas.json', import.meta.url), 'utf8')) as {
  areas: Record<string, Record<string, string>>;
  stateCodes: Record<string, Record<string, string>>;
};
const PHONE_AREAS = PHONE_PLAN.areas;

/** Lower case, accents and punctuation gone, one space between words, padded: for whole-word `includes`. */
export const placeWords = (text: string) =>
  ` ${text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;

/**
 * Whether an area's description ("Kollam, Kerala", "Morelia, MICH", "Jalisco/Zacatecas") names the place: the
 * city, or the state by a part naming it ("Michoacan" in "Michoacán de Ocampo") or by its abbreviation.
 */
export function areaFits(country: string, description: string, city: string, state: { code: string; name: string }) {
  if (placeWords(description).includes(placeWords(city))) return true;
  const stateWords = placeWords(state.name);
  return description.split(/[/,]/).some((part) => {
    const words = placeWords(part);
    if (words.trim() === '') return false;
    return (
      stateWords.includes(words) ||
      words.includes(stateWords) ||
      PHONE_PLAN.stateCodes[country]?.[part.trim()] === state.code
    );
  });
}

/** The prefixes of a country whose place is the city, and those of its state (the city's first); cached per place. */
const prefixesOfPlace = new Map<string, string[][]>();
function areaPrefixes(country: string, city: string, state: { code: string; name: string }): string[][] {
  const key = `${country}:${state.code}:${city}`;
  let groups = prefixesOfPlace.get(key);
  if (groups) return groups;
  const areas = Object.entries(PHONE_AREAS[country] ?? {});
  const ofCity = areas.filter(([, place]) => placeWords(place).includes(placeWords(city))).map(([prefix]) => prefix);
  const ofPlace = areas.filter(([, place]) => areaFits(country, place, city, state)).map(([prefix]) => prefix);
  groups = [ofCity, ofPlace].filter((group) => group.length > 0);
  prefixesOfPlace.set(key, groups);
  return groups;
}

/** The longest prefix of the national number that has an area: what a geocoder says of the number. */
export function areaOf(country: string, nationalNumber: string): { prefix: string; place: string } | null {
  const areas = PHONE_AREAS[country] ?? {};
  for (let length = nationalNumber.length; length > 0; length--) {
    const prefix = nationalNumber.slice(0, length);
    if (areas[prefix] !== undefined) return { prefix, place: areas[prefix] };
  }
  return null;
}

/**
 * A valid number of the country whose area fits the place: an area prefix of the city or state, then fresh
 * digits to one of the country's valid lengths, kept when libphonenumber finds it valid and its longest area
 * prefix is still one of the place's. A mobile number when the place has no area (or none gives a valid number).
 */
function phoneNumber(faker: Faker, country: string, city: string, state: { code: string; name: string }): string {
  const groups = areaPrefixes(country, city, state);
  const fits = new Set(groups.flat());
  const tryNumber = (prefix: string, length: number) => {
    const parsed = parsePhoneNumberFromString(
      prefix + faker.string.numeric(length - prefix.length),
      country as CountryCode,
    );
    if (!parsed?.isValid() || parsed.country !== country) return null;
    const area = areaOf(country, parsed.nationalNumber);
    return area && fits.has(area.prefix) ? parsed.formatInternational() : null;
  };
  const lengthOf = (prefix: string) => faker.number.int({ min: Math.max(prefix.length + 1, 7), max: 11 });
  for (const prefixes of groups) {
    for (let attempt = 0; attempt < 60; attempt++) {
      const prefix = faker.helpers.arrayElement(prefixes);
      const number = tryNumber(prefix, lengthOf(prefix));
      if (number) return number;
    }
    // Many prefixes are valid at one length only: then every prefix at every length, with enough digits tried
    // that one fits (1 in 70 for some).
    for (const prefix of prefixes) {
      for (let length = Math.max(prefix.length + 1, 7); length <= 11; length++) {
        for (let attempt = 0; attempt < 30; attempt++) {
          const number = tryNumber(prefix, length);
          if (number) return number;
        }
      }
    }
  }
  return mobileNumber(faker, country);
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
    const faker = new Faker({ locale: [...localesOf(office.country), en, base] });
    faker.seed(seedOf(seed, office.code));
    const perCity = new Map<string, number>();
    // Bigger places get more locations: the first cities of each state are drawn more often.
    const drawPlace = weightedDraw(
      faker,
      places.map((value, index) => ({ value, weight: 1 + 4 / (1 + (index % 25)) })),
    );
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
        phoneNumber: phoneNumber(faker, office.country, place.name, { code: place.state, name: stateName }),
      });
    }
  }
  return agents;
}
