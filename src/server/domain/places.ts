import { createRequire } from 'node:module';
import { countryProfile, placeKey } from '../../contract/countries';
import type { CityRow, StateRow } from './data-set';

// States and cities of the served countries come from the maintained `country-state-city` package; the
// codes are ISO 3166-2 subdivision codes without the country prefix (what the agent list's `state` takes).
// What differs per country (code overrides, which subdivisions are states, published spellings) is in the
// country profiles (src/contract/countries.ts).

type Catalog = typeof import('country-state-city');
const require = createRequire(import.meta.url);
let loaded: Catalog | undefined;
/**
 * The package's states and cities, loaded on first use (a start that seeds, an import, a staged change): its
 * cities with their coordinates are heap that a serving thread never needs.
 */
const catalog = (): Catalog => (loaded ??= require('country-state-city') as Catalog);

/** The catalog's name of a state (its served code) and the names of its cities, in the catalog's order. */
export function catalogCitiesOfState(country: string, state: string): { stateName: string; cities: string[] } {
  const states = catalog()
    .State.getStatesOfCountry(country)
    .filter((s) => stateCode(country, s.isoCode) === state);
  return {
    stateName: states[0]?.name ?? state,
    cities: states.flatMap((s) =>
      catalog()
        .City.getCitiesOfState(country, s.isoCode)
        .map((c) => c.name),
    ),
  };
}

const stateCode = (country: string, code: string) => countryProfile(country).stateCodeOverrides?.[code] ?? code;
const keepState = (country: string, code: string) => countryProfile(country).isState?.(code) ?? true;

export function loadStates(countries: string[]): StateRow[] {
  return countries.flatMap((country) =>
    catalog()
      .State.getStatesOfCountry(country)
      .filter((s) => keepState(country, s.isoCode))
      .map((s) => ({ country, code: stateCode(country, s.isoCode), name: s.name })),
  );
}

/** Resolves a state as published (a name, a misspelt name, a code) to a state code, or null. */
export class StateResolver {
  private readonly byKey = new Map<string, Map<string, string>>();
  private readonly codes = new Map<string, Set<string>>();

  constructor(states: StateRow[]) {
    for (const s of states) {
      if (!this.byKey.has(s.country)) this.byKey.set(s.country, new Map());
      if (!this.codes.has(s.country)) this.codes.set(s.country, new Set());
      this.byKey.get(s.country)!.set(placeKey(s.country, s.name), s.code);
      this.codes.get(s.country)!.add(s.code);
    }
  }

  resolve(country: string, published: string | null | undefined): string | null {
    const raw = (published ?? '').trim();
    if (!raw) return null;
    if (this.codes.get(country)?.has(raw.toUpperCase())) return raw.toUpperCase();
    const keys = this.byKey.get(country);
    if (!keys) return null;
    const key = placeKey(country, raw);
    const exact = keys.get(key);
    if (exact) return exact;
    // Truncated names as published ("Anamb", "Bauch"): accept only an unambiguous prefix.
    if (key.length >= 4) {
      const matches = [...keys.entries()].filter(([k]) => k.startsWith(key));
      if (matches.length === 1) return matches[0][1];
    }
    return null;
  }
}

/**
 * Cities of each of the states' countries, with a district placed in the division (state) that the country's
 * branches give it (`branches`: rows with a district and a state, as a code or a published name).
 */
export function loadCitiesOf(
  states: StateRow[],
  branches: Iterable<{ country: string; district: string | null; state: string | null }>,
): CityRow[] {
  const districtDivisions = new Map<string, string>();
  // Hundreds of thousands of branches, a few hundred districts: each district's key is normalised once.
  const keys = new Map<string, string>();
  for (const b of branches) {
    if (!b.district || !b.state) continue;
    const spelled = `${b.country}:${b.district}`;
    let key = keys.get(spelled);
    if (key === undefined) keys.set(spelled, (key = `${b.country}:${placeKey(b.country, b.district)}`));
    districtDivisions.set(key, b.state);
  }
  return loadCities(states, new StateResolver(states), districtDivisions);
}

/**
 * Cities of each served state. Bangladesh's cities are filed under districts in the package; they are lifted
 * to the division that the real branch data places that district in (`districtDivisions`).
 */
function loadCities(states: StateRow[], resolver: StateResolver, districtDivisions: Map<string, string>): CityRow[] {
  const served = new Set(states.map((s) => `${s.country}:${s.code}`));
  const countries = [...new Set(states.map((s) => s.country))];
  const rows = new Map<string, CityRow>();
  for (const country of countries) {
    const packageStates = new Map(
      catalog()
        .State.getStatesOfCountry(country)
        .map((s) => [s.isoCode, s.name]),
    );
    for (const city of catalog().City.getCitiesOfCountry(country) ?? []) {
      let state = stateCode(country, city.stateCode);
      if (!served.has(`${country}:${state}`)) {
        const district = packageStates.get(city.stateCode);
        const division = district ? districtDivisions.get(`${country}:${placeKey(country, district)}`) : undefined;
        state = (division && resolver.resolve(country, division)) || '';
      }
      if (!state || !served.has(`${country}:${state}`)) continue;
      rows.set(`${country}:${state}:${city.name}`, { country, state, name: city.name });
    }
  }
  return [...rows.values()];
}
