import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { csvRows } from '../src/testing/csv-rows';
import { CORRESPONDENT_ID, expect, signIn, test } from './fixtures';

// The property: for 200 random filter sets per country that pays into bank accounts (delivery mode 04:
// Bangladesh, India, Nigeria), the rows the branch finder shows are the API's rows for those filters, in order
// (compared by branch id), and the total it shows is the API's. The filter sets are drawn from the shipped data
// (real banks, parts of real names and addresses, districts for Bangladesh, head offices that pay into the bank
// and some that do not, a page further on), with a seeded generator: a failure names its seed and its set.
// The screen moves from one set to the next as a teller's Back/Forward does (the URL, no reload), so a row left
// over from the previous answer would show.

const SETS_PER_COUNTRY = 200;
const SEED = Number(process.env.PROPERTY_SEED ?? 20261124);
const COUNTRIES = ['BD', 'IN', 'NG'] as const;

// The three countries are independent: they may run in the two workers at once.
test.describe.configure({ mode: 'parallel' });

/** mulberry32: a small seeded generator, so a failing set can be replayed. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Row = Record<string, string>;
const seedRows = (country: string): Row[] =>
  csvRows(readFileSync(join(import.meta.dirname, '..', 'data', 'seed', 'bank-branches', `${country}.csv`)));

/** A piece of a text a teller might type: a word or a part of one, in any case. */
function pieceOf(text: string, random: () => number): string {
  const words = text.split(/[\s,]+/).filter((w) => w.length >= 3);
  if (words.length === 0) return text.slice(0, 3);
  const word = words[Math.floor(random() * words.length)];
  const start = Math.floor(random() * Math.max(1, word.length - 3));
  const piece = word.slice(start, start + 3 + Math.floor(random() * (word.length - start - 2)));
  return random() < 0.5 ? piece.toLowerCase() : piece;
}

function filterSets(country: string, headOffices: string[], random: () => number) {
  const rows = seedRows(country);
  const sets: Record<string, string>[] = [];
  for (let i = 0; i < SETS_PER_COUNTRY; i++) {
    const row = rows[Math.floor(random() * rows.length)];
    const set: Record<string, string> = {
      receivingAgentHeadOfficeCode: headOffices[Math.floor(random() * headOffices.length)],
    };
    if (random() < 0.6) set.bankCode = row.bank_code;
    else if (random() < 0.5) set.bankName = pieceOf(row.bank_name, random);
    if (random() < 0.35) set.branchLocation = pieceOf(row.address_line1, random);
    if (random() < 0.25) set.address = pieceOf(row.address_line2, random);
    if (country === 'BD' && random() < 0.3) set.district = row.district;
    if (random() < 0.1) set.bankCode = row.routing_number || row.bank_code;
    if (random() < 0.1) set.pageNumber = '2';
    sets.push(set);
  }
  return sets;
}

const headers = { 'x-fapi-financial-id': CORRESPONDENT_ID };

async function modeFourHeadOffices(request: APIRequestContext, country: string): Promise<string[]> {
  const response = await request.get(`/v1/payout-networks?receivingCountry=${country}&deliveryMode=04`, { headers });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { data: { receivingAgentHeadOfficeCode: string }[] };
  return body.data.map((n) => n.receivingAgentHeadOfficeCode);
}

type Shown = { total: number | null; ids: (string | null)[] };

/**
 * Run in the page: what the screen shows (the total's number and each row's branch id, in order), and whether it
 * is `want` (an empty answer: no row, whatever the total); `waiting`: false until it is. In the page, so a wait
 * for a screen is one call that checks every 20 ms in the page, not a poll of the browser from here.
 */
function screenIs([want, waiting]: [Shown, boolean]): { shown: Shown; ok: boolean } | false {
  const total = document.querySelector('[data-testid="result-total"]')?.textContent;
  const links = document.querySelectorAll<HTMLAnchorElement>('a[data-testid="branch-detail-link"]');
  const ids = [...links].map((link) => new URL(link.href).searchParams.get('branch'));
  const shown = { total: total == null ? null : Number(total.replace(/\D/g, '')), ids };
  const sameIds = ids.join('\n') === want.ids.join('\n');
  const ok = want.ids.length === 0 ? ids.length === 0 : sameIds && shown.total === want.total;
  return waiting && !ok ? false : { shown, ok };
}

/** Waits until the screen shows `expected`; fails naming what it shows. */
async function expectScreen(page: Page, expected: Shown, message: string) {
  const matched = await page
    .waitForFunction(screenIs, [expected, true] as [Shown, boolean], { polling: 20, timeout: 15_000 })
    .then(() => true)
    .catch(() => false);
  if (matched) return;
  const { shown } = (await page.evaluate(screenIs, [expected, false] as [Shown, boolean])) as { shown: Shown };
  if (expected.ids.length === 0) expect(shown.ids, message).toEqual([]);
  else expect(shown, message).toEqual(expected);
}

for (const country of COUNTRIES) {
  test(`${country}: the rows on screen are the API's rows for ${SETS_PER_COUNTRY} random filter sets, in order`, async ({
    page,
  }) => {
    test.setTimeout(900_000);
    await signIn(page);
    const random = generator(SEED + country.charCodeAt(0) * 31 + country.charCodeAt(1));
    const headOffices = await modeFourHeadOffices(page.request, country);
    expect(headOffices.length).toBeGreaterThan(0);
    await page.goto(
      `/branches?receivingCountry=${country}&deliveryMode=04&receivingAgentHeadOfficeCode=${headOffices[0]}`,
    );
    await expect(page.getByTestId('result-total')).toBeVisible();
    // The API's answer to every set first (an empty answer: no row may stay on screen; the total, when shown,
    // says 0), then the screen set by set.
    const answers = await Promise.all(
      filterSets(country, headOffices, random).map(async (set, index) => {
        const query = new URLSearchParams({ receivingCountry: country, deliveryMode: '04', ...set });
        const response = await page.request.get(`/v1/banks/branches?${query}`, { headers });
        // A piece the contract refuses (too short): not an answer to compare.
        if (response.status() === 400) return null;
        expect(response.status(), `set ${index} ${query}`).toBe(200);
        const answer = (await response.json()) as { data: { branchId: string }[]; pagination: { totalItems: number } };
        return {
          index,
          query,
          expected: { total: answer.pagination.totalItems, ids: answer.data.map((b) => b.branchId) },
        };
      }),
    );
    let compared = 0;
    let nonEmpty = 0;
    for (const { index, query, expected } of answers.filter((a) => a !== null)) {
      // The URL as a teller's link, Back or Forward gives it: the screen follows without a reload.
      await page.evaluate((url) => {
        history.pushState(null, '', url);
        dispatchEvent(new PopStateEvent('popstate'));
      }, `/branches?${query}`);
      await expectScreen(page, expected, `set ${index} ${query}`);
      if (expected.ids.length > 0) nonEmpty++;
      compared++;
    }
    // Most sets are answered (the others are refused by the contract), and many have rows.
    expect(compared).toBeGreaterThan(SETS_PER_COUNTRY * 0.8);
    expect(nonEmpty).toBeGreaterThan(SETS_PER_COUNTRY * 0.3);
    console.log(`${country}: ${compared} filter sets compared, ${nonEmpty} with rows (seed ${SEED})`);
  });
}
