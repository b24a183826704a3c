import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { csvRows } from '../../../testing/csv-rows';
import { SEED_DIR, readSeedFiles, referenceDataSet } from '../seed';

// The committed agents (data/seed/agents.csv, npm run generate:agents) look like real ones: a street
// address that starts with a word or a number, and a phone number whose area is the agent's own city or state
// (Google libphonenumber's geocoding data, src/server/seed/phone-areas.json); a mobile number only where the
// country's plan has no area for the place. Checked here on the file itself, not on the generator.

const agents = csvRows(readFileSync(join(SEED_DIR, 'agents.csv')));
const plan = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'phone-areas.json'), 'utf8')) as {
  areas: Record<string, Record<string, string>>;
  stateCodes: Record<string, Record<string, string>>;
};
const areas = plan.areas;
const stateNames = new Map(referenceDataSet(readSeedFiles()).states.map((s) => [`${s.country}:${s.code}`, s.name]));

const words = (text: string) =>
  ` ${text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
/** The area names the agent's city, or its state by a part of the state's name or by its abbreviation. */
function fits(place: string, agent: Record<string, string>): boolean {
  if (words(place).includes(words(agent.city))) return true;
  const state = words(stateNames.get(`${agent.country}:${agent.state}`)!);
  return place.split(/[/,]/).some((part) => {
    const named = words(part);
    if (named.trim() === '') return false;
    return (
      state.includes(named) || named.includes(state) || plan.stateCodes[agent.country]?.[part.trim()] === agent.state
    );
  });
}
/** The place of the longest prefix of the number that has one: what a geocoder says of it. */
function placeOf(country: string, national: string): string | null {
  for (let length = national.length; length > 0; length--) {
    const place = areas[country]?.[national.slice(0, length)];
    if (place !== undefined) return place;
  }
  return null;
}

describe('the committed agents file', () => {
  it('has every agent of every partner, with addresses that start with a word or a number', () => {
    expect(agents.length).toBe(25_120);
    const bad = agents.filter((a) => !/^[\p{L}\p{N}]/u.test(a.address_line1) || /^\s*,/.test(a.address_line1));
    expect(bad.map((a) => `${a.agent_code}: "${a.address_line1}"`)).toEqual([]);
  });

  it("gives each agent a valid phone number of its country whose area is the agent's city or state", () => {
    const wrongArea: string[] = [];
    const mobileWhereAnAreaFits: string[] = [];
    const counts = new Map<string, { area: number; mobile: number }>();
    for (const agent of agents) {
      const phone = parsePhoneNumberFromString(agent.phone_number, agent.country as CountryCode);
      expect(phone?.isValid(), `${agent.agent_code} ${agent.phone_number}`).toBe(true);
      expect(phone!.country).toBe(agent.country);
      const count = counts.get(agent.country) ?? { area: 0, mobile: 0 };
      counts.set(agent.country, count);
      const place = placeOf(agent.country, phone!.nationalNumber);
      if (place !== null) {
        count.area++;
        if (!fits(place, agent))
          wrongArea.push(`${agent.agent_code} ${agent.phone_number} is ${place}, not ${agent.city}`);
      } else {
        count.mobile++;
        if (Object.values(areas[agent.country] ?? {}).some((p) => fits(p, agent))) {
          mobileWhereAnAreaFits.push(`${agent.agent_code} ${agent.city} ${agent.state}: ${agent.phone_number}`);
        }
      }
    }
    console.log(Object.fromEntries(counts));
    expect(wrongArea.slice(0, 20)).toEqual([]);
    expect(mobileWhereAnAreaFits.slice(0, 20)).toEqual([]);
    // Most agents live where the plan has areas: the check above is about real numbers, not about none.
    const withArea = [...counts.values()].reduce((sum, c) => sum + c.area, 0);
    expect(withArea / agents.length).toBeGreaterThan(0.5);
  });
});
