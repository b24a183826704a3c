import type { Locator, Page } from '@playwright/test';
import { expect as baseExpect, expectAccessible, signIn, test, typeLikeAPerson } from './fixtures';

// An empty answer says the cause it can prove, and every "Did you mean" is a search that finds rows when taken,
// as many as it promised. Every search is typed with pauses, some mid-word.

// Two cores shared by several engineers: an answer may take seconds.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const AGENT_SEARCH = 'Search head office or agent name';

test.beforeEach(async ({ page }) => signIn(page));

/** The suggestions offered, their texts and the counts they promise. */
async function suggestions(page: Page) {
  const buttons = page.getByTestId('did-you-mean').getByTestId('suggestion');
  await expect(buttons.first()).toBeVisible();
  return buttons;
}

/** Takes a suggestion and checks the list then shows as many rows as it promised, with a first row. */
async function take(page: Page, suggestion: Locator, list: string, noun: 'agent' | 'branch' | 'bank branch') {
  const promised = Number(await suggestion.getAttribute('data-count'));
  expect(promised).toBeGreaterThan(0);
  await expect(suggestion).toContainText(promised.toLocaleString('en'));
  await suggestion.click();
  await expect(page.getByTestId('result-total')).toHaveText(new RegExp(`^${promised.toLocaleString('en')} ${noun}`));
  await expect(page.getByRole('table', { name: list }).locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('results-empty')).toHaveCount(0);
  return promised;
}

test('"oxxo": the cause is the letter case, and one tap finds the OXXO agents it counted', async ({ page }) => {
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01');
  const search = page.getByLabel(AGENT_SEARCH);
  await typeLikeAPerson(search, ['ox', 'xo'], [600]);
  await expect(page.getByText('No agents match "oxxo".')).toBeVisible();
  await expect(page.getByTestId('empty-cause')).toHaveAttribute('data-cause', 'case');
  await expect(page.getByTestId('empty-cause')).toHaveText(/case-sensitive/);
  const offered = await suggestions(page);
  await expect(offered.first()).toContainText('"OXXO"');
  await expectAccessible(page);
  await take(page, offered.first(), 'Agents', 'agent');
  await expect(search).toHaveValue('OXXO');
  await expect(page).toHaveURL(/search=OXXO/);
});

for (const { typed, parts, found } of [
  { typed: 'Dacca', parts: ['Da', 'cca'], found: 'Dhaka' },
  { typed: 'Chattogram', parts: ['Chatto', 'gram'], found: 'Chittagong' },
  { typed: 'Bogura', parts: ['Bog', 'ura'], found: 'Bogra' },
]) {
  test(`agent search, Bangladesh: "${typed}" offers the place's other name, which finds agents`, async ({ page }) => {
    await page.goto('/agents?receivingCountry=BD&deliveryMode=01');
    const search = page.getByLabel(AGENT_SEARCH);
    await typeLikeAPerson(search, parts);
    await expect(page.getByTestId('empty-cause')).toHaveAttribute('data-cause', 'alias');
    const offered = await suggestions(page);
    await expect(offered.first()).toContainText(`"${found}"`);
    await take(page, offered.first(), 'Agents', 'agent');
    await expect(search).toHaveValue(found);
    await expect(page.getByRole('table', { name: 'Agents' }).locator('tbody tr').first()).toContainText(found);
  });
}

for (const { parts, value } of [
  { parts: ['Sonali ', 'Bog', 'ra'], value: 'Sonali Bogra' },
  { parts: ['sonali bank', ', bog', 'ra'], value: 'sonali bank, bogra' },
]) {
  test(`agent search, Bangladesh account transfer: "${value}" suggests a search that finds its branches`, async ({
    page,
  }) => {
    await page.goto('/agents?receivingCountry=BD&deliveryMode=04');
    const search = page.getByLabel(AGENT_SEARCH);
    await typeLikeAPerson(search, parts);
    await expect(search).toHaveValue(value);
    const offered = await suggestions(page);
    // Delivery mode 04: the agent rows are bank branches reachable through a head office, and the count says so.
    await take(page, offered.first(), 'Agents', 'bank branch');
    const taken = await search.inputValue();
    expect(taken).toMatch(/^SONALI[^,]*, BOGRA$/);
    await expect(page.getByRole('table', { name: 'Agents' }).locator('tbody tr').first()).toContainText('BOGRA');
  });
}

for (const { parts, meant } of [
  { parts: ['Guar', 'enty Trust'], meant: 'Guaranty Trust' },
  { parts: ['Zen', 'it Bank'], meant: 'Zenith Bank' },
  { parts: ['Ac', 'ess'], meant: 'Access' },
]) {
  test(`branch finder, Nigeria: "${parts.join('')}" suggests "${meant}", which finds branches; browse never says 0 banks`, async ({
    page,
  }) => {
    await page.goto('/branches?receivingCountry=NG&deliveryMode=04&receivingAgentHeadOfficeCode=ACCSNG');
    await expect(page.getByTestId('result-total')).toBeVisible({ timeout: 120_000 });
    const bankName = page.getByLabel('Bank name');
    await typeLikeAPerson(bankName, parts);
    await expect(page.getByTestId('empty-cause')).toHaveAttribute('data-cause', 'spelling');
    const offered = await suggestions(page);
    await expect(offered.first()).toContainText(`"${meant}"`);
    await take(page, offered.first(), 'Bank branches', 'branch');
    await expect(bankName).toHaveValue(meant);
    const browse = page.getByTestId('browse-facets');
    await expect(browse.getByText(/^[1-9][\d,]* banks?$/)).toBeVisible();
    await expect(browse.getByText(/^0 banks$/)).toHaveCount(0);
  });
}

test('branch finder: a filter that excludes every branch is named, and leaving it out finds them', async ({ page }) => {
  await page.goto('/branches?receivingCountry=NG&deliveryMode=04&receivingAgentHeadOfficeCode=ACCSNG');
  await expect(page.getByTestId('result-total')).toBeVisible({ timeout: 120_000 });
  await typeLikeAPerson(page.getByLabel('Branch location'), ['Ike', 'ja']);
  await expect(page.getByTestId('result-total')).toHaveText(/branch/);
  await typeLikeAPerson(page.getByLabel('Address'), ['Zzq', 'xq']);
  await expect(page.getByTestId('empty-cause')).toHaveAttribute('data-cause', 'filter');
  await expect(page.getByTestId('empty-cause')).toContainText('The address filter excludes');
  const offered = await suggestions(page);
  await expect(offered.first()).toContainText('without the address filter');
  await take(page, offered.first(), 'Bank branches', 'branch');
  await expect(page.getByLabel('Address')).toHaveValue('');
  await expect(page.getByLabel('Branch location')).toHaveValue('Ikeja');
});
