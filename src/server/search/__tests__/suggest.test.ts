import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLACE_ALIASES,
  agentsResponse,
  branchesResponse,
  problem,
  suggestionsResponse,
  type SearchSuggestion,
} from '../../../contract';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { editDistance } from '../suggest';

// GET /v1/suggestions/agents and /v1/suggestions/branches through the real app on the shipped data: the causes
// of an empty answer, and suggestions that find, when taken, the rows they promised.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Query = Record<string, string>;

async function ok<T>(path: string, query: Query, schema: { parse: (value: unknown) => T }): Promise<T> {
  const res = await t.get(path, query);
  expect(res.statusCode, `${path} ${JSON.stringify(query)}: ${res.body}`).toBe(200);
  return schema.parse(res.json());
}

const suggest = (screen: 'agents' | 'branches', query: Query) =>
  ok(`/v1/suggestions/${screen}`, query, suggestionsResponse);

/** The list's own answer to the search with a suggestion's changes ('' leaves a filter out). */
async function taken(screen: 'agents' | 'branches', query: Query, suggestion: SearchSuggestion) {
  const next: Query = { ...query, pageSize: '1' };
  for (const [field, value] of Object.entries(suggestion.changes))
    if (value === '') delete next[field];
    else next[field] = value;
  if (screen === 'agents') return (await ok('/v1/agents', next, agentsResponse)).pagination.totalItems;
  return (await ok('/v1/banks/branches', next, branchesResponse)).pagination.totalItems;
}

const BD = { receivingCountry: 'BD', deliveryMode: '01' };
const NG_BRANCHES = { receivingCountry: 'NG', deliveryMode: '04', receivingAgentHeadOfficeCode: 'ACCSNG' };

describe('suggestions API', () => {
  it.each([
    [{ receivingCountry: 'MX', deliveryMode: '01', search: 'oxxo' }, 'case', 'OXXO'],
    [{ ...BD, search: 'Dacca' }, 'alias', 'Dhaka'],
    [{ ...BD, search: 'Chattogram' }, 'alias', 'Chittagong'],
    [{ ...BD, search: 'Bogura' }, 'alias', 'Bogra'],
    [{ receivingCountry: 'BD', deliveryMode: '04', search: 'sonali bank, bogra' }, 'case', 'SONALI BANK, BOGRA'],
    [{ receivingCountry: 'BD', deliveryMode: '04', search: 'Sonali Bogra' }, 'pattern', 'SONALI, BOGRA'],
  ])('agents %j: cause %s, "%s" finds what it promised', async (query, cause, search) => {
    const answer = await suggest('agents', query);
    expect(answer.totalItems).toBe(0);
    expect(answer.cause).toBe(cause);
    expect(answer.suggestions[0].changes).toEqual({ search });
    for (const s of answer.suggestions) expect(await taken('agents', query, s)).toBe(s.totalItems);
  });

  it.each([
    ['Guarenty Trust', 'Guaranty Trust'],
    ['Zenit Bank', 'Zenith Bank'],
    ['Acess', 'Access'],
  ])('branches, bank name %j: a close spelling, %j, that finds branches', async (bankName, meant) => {
    const query = { ...NG_BRANCHES, bankName };
    const answer = await suggest('branches', query);
    expect(answer.cause).toBe('spelling');
    expect(answer.suggestions[0].changes).toEqual({ bankName: meant });
    for (const s of answer.suggestions) expect(await taken('branches', query, s)).toBe(s.totalItems);
  });

  it('names the filter that excludes every branch, and the state that excludes every agent', async () => {
    const branches = { ...NG_BRANCHES, bankName: 'Access', branchLocation: 'Zzqxq' };
    const answer = await suggest('branches', branches);
    expect(answer).toMatchObject({ cause: 'filter', filter: 'branchLocation' });
    expect(answer.suggestions[0].changes).toEqual({ branchLocation: '' });
    expect(await taken('branches', branches, answer.suggestions[0])).toBe(answer.suggestions[0].totalItems);

    // OXXO has no agent in a state where none of its rows are: the state is the cause.
    const states = await ok(
      '/v1/states',
      { receivingCountry: 'MX' },
      { parse: (v) => v as { data: { code: string }[] } },
    );
    for (const { code } of states.data) {
      const query = { receivingCountry: 'MX', deliveryMode: '01', state: code, search: 'OXXO' };
      if ((await ok('/v1/agents', { ...query, pageSize: '1' }, agentsResponse)).pagination.totalItems > 0) continue;
      const inState = await suggest('agents', query);
      expect(inState).toMatchObject({ cause: 'filter', filter: 'state' });
      return;
    }
  });

  it('a search that finds rows has no cause; one that nothing resembles is "none"', async () => {
    expect(await suggest('agents', { receivingCountry: 'MX', deliveryMode: '01', search: 'OXXO' })).toMatchObject({
      cause: null,
      suggestions: [],
    });
    const none = await suggest('agents', { receivingCountry: 'MX', deliveryMode: '01', search: 'Qzxjvwq' });
    expect(none).toEqual({ totalItems: 0, cause: 'none', filter: null, suggestions: [] });
  });

  it.each([
    ['/v1/suggestions/agents', { receivingCountry: 'mx', deliveryMode: '01', search: 'x' }, 'receivingCountry'],
    ['/v1/suggestions/agents', { receivingCountry: 'MX', deliveryMode: 'x' }, 'deliveryMode'],
    ['/v1/suggestions/agents', { receivingCountry: 'MX', deliveryMode: '01', pageSize: '5' }, 'pageSize'],
    ['/v1/suggestions/branches', { receivingCountry: 'NG', deliveryMode: '04' }, 'receivingAgentHeadOfficeCode'],
    ['/v1/suggestions/branches', { ...NG_BRANCHES, bankName: 'x'.repeat(500) }, 'bankName'],
  ])('%s %j: a 400 in problem+json naming %s', async (path, query, name) => {
    const res = await t.get(path, query);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = problem.parse(res.json());
    expect(body.errors.map((e) => e.name)).toContain(name);
  });

  it('edit distance counts an adjacent swap as one edit and stops past the bound', () => {
    expect(editDistance('acess', 'access', 2)).toBe(1);
    expect(editDistance('guarenty', 'guaranty', 2)).toBe(1);
    expect(editDistance('zenit', 'zenith', 1)).toBe(1);
    expect(editDistance('dhaka', 'dhaak', 2)).toBe(1);
    expect(editDistance('abc', 'xyzxyz', 2)).toBe(3);
  });
});

/** mulberry32: a small seeded generator, so a failing run can be repeated with its printed seed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]) => items[int(items.length)];
  return { next, int, pick };
}

type Random = ReturnType<typeof generator>;

/** A word spelt wrong, miscased, or both. */
function mangle(random: Random, word: string): string {
  const chars = [...word];
  const i = random.int(chars.length);
  switch (random.int(5)) {
    case 0:
      return word.toLowerCase();
    case 1:
      chars.splice(i, 1);
      break;
    case 2:
      if (i + 1 < chars.length) [chars[i], chars[i + 1]] = [chars[i + 1], chars[i]];
      break;
    case 3:
      chars.splice(i, 0, chars[i]);
      break;
    default:
      chars[i] = 'aeiou'[random.int(5)];
  }
  const out = chars.join('');
  return random.int(2) === 0 ? out : out.toLowerCase();
}

const wordOf = (random: Random, text: string | null) => {
  const words = (text ?? '').match(/\p{L}{4,}/gu) ?? [];
  return words.length ? random.pick(words) : null;
};

describe('suggestions, property: every suggestion of an empty search finds, when taken, what it promised', () => {
  it('200 random empty searches (misspelt, miscased, other place names)', { timeout: 600_000 }, async () => {
    const seed = Number(process.env.SUGGEST_SEED ?? Date.now() % 2 ** 31);
    console.log(`suggestions property: seed ${seed} (SUGGEST_SEED=${seed} repeats this run)`);
    const random = generator(seed);
    const view = t.app.searchIndex.index().extensionView;
    const { data } = view;
    const mode04 = data.offices.filter((o) => o.deliveryModes.includes(4));
    const aliases = Object.entries(PLACE_ALIASES).flatMap(([country, list]) =>
      list.flatMap((names) => names.map((name) => ({ country, name }))),
    );
    let empty = 0;
    let offered = 0;
    let attempts = 0;
    while (empty < 200 && attempts++ < 3000) {
      let screen: 'agents' | 'branches';
      let query: Query;
      const shape = random.int(4);
      if (shape === 0 || shape === 3) {
        // An agent name's word (or a place's other name), mangled, in the office's mode.
        const record = view.agentRecord(random.int(data.agents.count));
        const word = shape === 3 ? null : wordOf(random, record.agentName);
        const alias = shape === 3 ? random.pick(aliases.filter((a) => a.country === record.receivingCountry)) : null;
        const search = alias ? alias.name : word ? mangle(random, word) : null;
        if (!search) continue;
        screen = 'agents';
        query = { receivingCountry: record.receivingCountry, deliveryMode: record.deliveryModes[0], search };
        if (record.state && random.int(4) === 0) query.state = record.state;
      } else {
        const office = random.pick(mode04);
        const row = random.int(data.branches.count);
        const branch = view.branchRecord(row, office.code);
        if (branch.receivingCountry !== office.country) continue;
        if (shape === 1) {
          // Mode 04 agent list: "[bank], [branch]" with words mangled.
          const bank = wordOf(random, branch.bankName);
          const name = wordOf(random, branch.branchName);
          if (!bank || !name) continue;
          screen = 'agents';
          query = {
            receivingCountry: office.country,
            deliveryMode: '04',
            search:
              random.int(3) === 0
                ? `${mangle(random, bank)} ${mangle(random, name)}`
                : `${mangle(random, bank)}, ${mangle(random, name)}`,
          };
        } else {
          // Branch finder: a bank name or branch location word mangled, sometimes with a second filter.
          const field = random.pick(['bankName', 'branchLocation', 'address'] as const);
          const source =
            field === 'bankName'
              ? branch.bankName
              : field === 'branchLocation'
                ? branch.branchLocation
                : branch.address;
          const word = wordOf(random, source);
          if (!word) continue;
          screen = 'branches';
          query = {
            receivingCountry: office.country,
            deliveryMode: '04',
            receivingAgentHeadOfficeCode: office.code,
            [field]: mangle(random, word),
          };
          if (field !== 'bankName' && random.int(3) === 0) query.bankName = branch.bankName;
        }
      }
      const answer = await suggest(screen, query);
      if (answer.totalItems > 0) continue;
      empty++;
      expect(answer.cause).not.toBeNull();
      if (answer.suggestions.length > 0) offered++;
      for (const suggestion of answer.suggestions) {
        expect(
          suggestion.totalItems,
          `${screen} ${JSON.stringify(query)} → ${JSON.stringify(suggestion)}`,
        ).toBeGreaterThan(0);
        expect(
          await taken(screen, query, suggestion),
          `${screen} ${JSON.stringify(query)} → ${JSON.stringify(suggestion)}`,
        ).toBe(suggestion.totalItems);
      }
    }
    console.log(`suggestions property: ${empty} empty searches, ${offered} with suggestions (seed ${seed})`);
    expect(empty).toBe(200);
    // Most mangled words are close to a word of the data: most empty searches are offered a way out.
    expect(offered).toBeGreaterThan(100);
  });
});
