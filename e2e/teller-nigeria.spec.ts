import type { Page } from '@playwright/test';
import {
  CORRESPONDENT_ID,
  clearLikeAPerson,
  expect as baseExpect,
  expectAccessible,
  signIn,
  test,
  typeLikeAPerson,
} from './fixtures';

// Nigeria's branches as a teller meets them: cities to browse (placed from each branch's address within its own
// state), a place that finds only its own branches, no column of dashes where no routing number is held (and
// the reason said once), and addresses without a replacement character.

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

const branchRows = (page: Page) => page.getByRole('table', { name: 'Bank branches' }).locator('tbody tr');
const total = async (page: Page) => Number((await page.getByTestId('result-total').textContent())!.replace(/\D/g, ''));

/** Access Bank's head office, paying into every Nigerian bank; the teller types Access Bank's code, 044. */
async function openAccessBank(page: Page) {
  await page.goto('/branches?receivingCountry=NG&deliveryMode=04&receivingAgentHeadOfficeCode=ACCSNG');
  // The first answer of a fresh server waits for its search index.
  await expect(page.getByTestId('result-total')).toContainText('branches', { timeout: 120_000 });
  await typeLikeAPerson(page.getByLabel('Bank code / routing number', { exact: true }), ['04', '4']);
  await expect(page).toHaveURL(/bankCode=044/);
  await expect(page.getByTestId('results-stale')).toHaveCount(0);
}

/** Browse: state Oyo, typed; then the city list, typed "Iba" … "dan". */
async function browseToIbadan(page: Page) {
  const state = page.getByRole('combobox', { name: 'Browse: state' });
  await expect(state).toBeEnabled();
  await typeLikeAPerson(state, ['Oy', 'o']);
  await expect(page.getByRole('option').first()).toContainText(/^Oyo/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/state=OY/);
  const city = page.getByRole('combobox', { name: 'Browse: city' });
  await expect(city).toBeEnabled();
  await typeLikeAPerson(city, ['Iba', 'dan']);
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('Nigeria: "Browse: city" lists the cities of the state with their counts, Ibadan among them', async ({ page }) => {
  await openAccessBank(page);
  await browseToIbadan(page);
  const ibadan = page.getByRole('option', { name: /^Ibadan — \d+/ });
  await expect(ibadan).toHaveCount(1);
  const count = Number((await ibadan.textContent())!.replace(/\D/g, ''));
  expect(count).toBeGreaterThan(0);
  // The whole list of Oyo's cities, each with a count.
  const city = page.getByRole('combobox', { name: 'Browse: city' });
  await clearLikeAPerson(city);
  await expect(city).toHaveValue('');
  if (!(await page.getByRole('listbox').isVisible())) await page.keyboard.press('ArrowDown');
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  for (const text of await options.allTextContents()) expect(text).toMatch(/^\S.* — [1-9]\d*$/);
  await expectAccessible(page);
});

test('Nigeria: the place Ibadan finds only branches whose city is Ibadan, all in Oyo state', async ({ page }) => {
  await openAccessBank(page);
  await browseToIbadan(page);
  const option = page.getByRole('option', { name: /^Ibadan — \d+/ });
  const listed = Number((await option.textContent())!.replace(/\D/g, ''));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/city=Ibadan/);
  await expect(page.getByTestId('results-stale')).toHaveCount(0);
  // The table holds what the list said, and each branch on it is an Ibadan branch of Oyo.
  expect(await total(page)).toBe(listed);
  await expect(branchRows(page)).toHaveCount(Math.min(listed, 50));
  const ids = await page
    .getByTestId('branch-detail-link')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).searchParams.get('branch')));
  for (const id of ids) {
    const answer = await page.request.get(`/v1/banks/branches/${id}`, {
      headers: { 'x-fapi-financial-id': CORRESPONDENT_ID },
    });
    expect(answer.status()).toBe(200);
    const branch = ((await answer.json()) as { data: { city: string | null; state: string | null } }).data;
    expect([branch.city, branch.state]).toEqual(['Ibadan', 'OY']);
  }
  // Opened, a branch says so too.
  await page.getByTestId('branch-detail-link').first().click();
  await expect(page.getByTestId('branch-detail-city')).toHaveText(/Ibadan/);
  await expect(page.getByTestId('branch-detail-state')).toHaveText(/Oyo \(OY\)/);
});

test('Nigeria: no routing-number column of dashes; the reason is said once, in the table and the detail', async ({
  page,
}) => {
  await openAccessBank(page);
  const table = page.getByRole('table', { name: 'Bank branches' });
  await expect(branchRows(page)).toHaveCount(50);
  await expect(table.getByRole('columnheader', { name: /routing number/i })).toHaveCount(0);
  await expect(table.getByRole('cell', { name: '—', exact: true })).toHaveCount(0);
  const note = page.getByTestId('no-routing-number');
  await expect(note).toHaveCount(1);
  await expect(note).toHaveText(/No routing number is held for these branches in Nigeria/);
  await page.getByTestId('branch-detail-link').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('no-routing-number')).toHaveCount(1);
  await expect(dialog.getByTestId('branch-detail-code')).toHaveCount(0);
  await expectAccessible(page);
});

test('Nigeria: the address published with a broken character shows the en dash it stood for', async ({ page }) => {
  await openAccessBank(page);
  await typeLikeAPerson(page.getByLabel('Branch location', { exact: true }), ['AGO', 'DI']);
  await expect(page).toHaveURL(/branchLocation=AGODI/);
  await expect(page.getByTestId('results-stale')).toHaveCount(0);
  const rows = branchRows(page);
  await expect(rows.filter({ hasText: 'IBADAN, AGODI – UCH' })).toHaveCount(1);
  for (const text of await rows.allTextContents()) {
    expect(text).toContain('AGODI');
    expect(text).not.toContain('\uFFFD');
  }
});
