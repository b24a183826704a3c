import { nameKey } from '../../contract/countries';
import { catalogCitiesOfState } from './places';

// A branch's city where its file gives none but its address names one (the country profile's
// `citiesFromAddress`: Nigeria's branch list has no city column). The rule:
//   1. Only the cities of the branch's own state (the `country-state-city` catalog) are candidates: an Ogun
//      branch on "IBADAN ROAD" is never an Ibadan branch, as Ibadan is no city of Ogun.
//   2. The address is read in comma-separated parts from the last to the first (Address Line 1, then the
//      branch name): the locality comes after the street. A part that is a city's name as a whole wins
//      ("…, IBADAN"); then a city's name inside a part, as whole words, read from the part's end
//      ("Agodi Ibadan").
//   3. A name followed by a street word ("OYO ROAD", "IBADAN EXPRESSWAY") names a road, and one followed by
//      "STATE" the state, never the city.
//   4. Nothing found: no city (never a guess).

const STREET_WORDS = new Set(
  'road rd street st way expressway express avenue ave close crescent highway bypass lane drive'.split(' '),
);
const LONGEST_NAME = 3; // words

interface StateCities {
  /** The state's own name (key): a trailing "…, Ibadan, Oyo" names the state Oyo, not its town Oyo. */
  state: string;
  byKey: Map<string, string>;
}
const citiesByState = new Map<string, StateCities>();

/** The state's cities by name key ("ijebuode" → "Ijebu-Ode"), loaded once per state. */
function citiesOf(country: string, state: string): StateCities {
  const id = `${country}:${state}`;
  let cities = citiesByState.get(id);
  if (!cities) {
    const catalog = catalogCitiesOfState(country, state);
    cities = {
      state: nameKey(catalog.stateName),
      byKey: new Map(catalog.cities.map((name) => [nameKey(name), name])),
    };
    citiesByState.set(id, cities);
  }
  return cities;
}

const wordsOf = (part: string) => part.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const isStreet = (word: string) => STREET_WORDS.has(word.toLowerCase());
const isState = (word: string) => word.toLowerCase() === 'state';

/** The city of the state named in the texts (most telling first), by the rule above; null when none is. */
export function cityFromAddress(country: string, state: string | null, texts: (string | null)[]): string | null {
  if (!state) return null;
  const { state: stateKey, byKey: cities } = citiesOf(country, state);
  if (cities.size === 0) return null;
  // A city named like its state counts only when no other city is named.
  let stateNamed: string | null = null;
  const found = (key: string): string | null => {
    const city = cities.get(key);
    if (city && key === stateKey) {
      stateNamed ??= city;
      return null;
    }
    return city ?? null;
  };
  for (const text of texts) {
    if (!text) continue;
    const parts = text.split(/[,;()]/).reverse();
    for (const part of parts) {
      const words = wordsOf(part);
      if (words.length === 0 || words.some((word) => isStreet(word) || isState(word))) continue;
      const whole = found(nameKey(part));
      if (whole) return whole;
    }
    for (const part of parts) {
      const words = wordsOf(part);
      // Words up to the last street word name the road ("GBONGAN-IBADAN ROAD"): only those after it count.
      let first = 0;
      words.forEach((word, i) => {
        if (isStreet(word)) first = i + 1;
      });
      for (let end = words.length; end > first; end--) {
        if (end < words.length && isState(words[end])) continue;
        for (let n = Math.min(LONGEST_NAME, end - first); n >= 1; n--) {
          const name = words.slice(end - n, end);
          if (name.some(isState)) continue;
          const city = found(nameKey(name.join(' ')));
          if (city) return city;
        }
      }
    }
  }
  return stateNamed;
}
