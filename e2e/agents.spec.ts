import { readFileSync } from 'node:fs';
import {
  chooseCountry,
  clearLikeAPerson,
  docsScreenshot,
  expect,
  expectAccessible,
  paste,
  signIn,
  test,
  typeLikeAPerson,
} from './fixtures';

test.beforeEach(async ({ page }) => signIn(page));

test('agent search: country and mode, state filter, case-sensitive search, paging, URL state through reload and Back', async ({
  page,
}) => {
  await page.goto('/agents');
  await chooseCountry(page, 'mex', /Mexico \(MX\)/);
  // The first mode Mexico offers is chosen; the URL holds the selection.
  await expect(page).toHaveURL(/receivingCountry=MX&deliveryMode=01/);
  const total = page.getByTestId('result-total');
  await expect(total).toHaveText(/[\d,]+ agents/);
  const rows = page.getByRole('table', { name: 'Agents' }).locator('tbody tr');
  await expect(rows).toHaveCount(50);

  // Search is debounced and written to the URL; the hint says it is case-sensitive.
  await expect(page.getByText(/Case-sensitive contains/)).toBeVisible();
  await typeLikeAPerson(page.getByLabel('Search head office or agent name'), ['OXXO']);
  await expect(page).toHaveURL(/search=OXXO/);
  await expect(rows.first()).toContainText('OXXO');
  const oxxoTotal = await total.textContent();

  // Paging: next page, then a bigger page size.
  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(page).toHaveURL(/pageNumber=2/);
  await expect(page.getByText(/^51–100 of/)).toBeVisible();
  await page.getByRole('combobox', { name: 'Per page' }).click();
  await page.getByRole('option', { name: '250' }).click();
  await expect(page).toHaveURL(/pageSize=250/);
  await expect(rows).toHaveCount(250);

  // Reload restores everything from the URL.
  const url = page.url();
  await page.reload();
  await expect(page).toHaveURL(url);
  await expect(page.getByLabel('Search head office or agent name')).toHaveValue('OXXO');
  await expect(total).toHaveText(oxxoTotal!);
  await expect(rows).toHaveCount(250);

  // Back goes to the previous page of results.
  await page.goBack();
  await expect(page).toHaveURL(/pageNumber=2/);
  await expect(page).not.toHaveURL(/pageSize=250/);
  await expect(rows).toHaveCount(50);

  // The state filter comes from /v1/states.
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: /Jalisco/ }).click();
  await expect(page).toHaveURL(/state=JAL/);
  await expect(rows.first()).toContainText('Jalisco');

  // Case-sensitive: lower case finds nothing, and the empty state says why.
  await clearLikeAPerson(page.getByLabel('Search head office or agent name'));
  await typeLikeAPerson(page.getByLabel('Search head office or agent name'), ['oxxo']);
  await expect(page.getByText('No agents in Jalisco match "oxxo".')).toBeVisible();
  await expect(page.getByTestId('empty-cause')).toHaveText(/The search is case-sensitive/);
});

test('agent codes copy in one click and the results export as CSV', async ({ page }) => {
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&search=OXXO&pageSize=10');
  const firstCode = page.getByRole('table', { name: 'Agents' }).locator('tbody tr').first().locator('code').first();
  const code = (await firstCode.textContent())!;
  await page.getByRole('button', { name: `Copy agent code ${code}` }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

  // Every matching row is exported, not only the 10 on screen.
  const total = Number((await page.getByTestId('result-total').textContent())!.replace(/\D/g, ''));
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const lines = readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n');
  expect(lines[0]).toBe(
    'agent_code,head_office_code,country,agent_name,address_line1,address_line2,city,state,phone_number',
  );
  expect(lines).toHaveLength(total + 1);
  expect(lines[1]).toContain(code);
});

test('delivery mode 04 points to the branch finder and hints the [Bank Name], [Branch Name] pattern', async ({
  page,
}) => {
  await page.goto('/agents');
  await chooseCountry(page, 'IN', /India \(IN\)/);
  // India offers account transfer only as 04.
  await expect(page).toHaveURL(/receivingCountry=IN&deliveryMode=04/);
  const pointer = page.getByTestId('branch-finder-pointer');
  await expect(pointer).toContainText('branch finder');
  await expect(
    page.getByText('Case-sensitive. With mode 04 use the pattern [Bank Name], [Branch Name].'),
  ).toBeVisible();
  await expectAccessible(page);
  await pointer.getByRole('link', { name: 'Open branch finder' }).click();
  await expect(page).toHaveURL(/\/branches\?receivingCountry=IN&deliveryMode=04/);
  await expect(page.getByRole('heading', { name: 'Bank branches' })).toBeVisible();
});

test('a 400 from the API is shown with its message and correlation id', async ({ page }) => {
  // A hand-edited link with a page size over the API's limit reaches the API as written.
  const answer = page.waitForResponse((r) => r.url().includes('/v1/agents'));
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&pageSize=5000');
  const response = await answer;
  expect(response.status()).toBe(400);
  // A sentence and a reference for support, with the refused value named.
  const alert = page.getByRole('alert').filter({ hasText: 'The request was not accepted' });
  await expect(alert).toContainText('pageSize');
  await expect(alert).toContainText('must be between 1 and 1000');
  await expect(alert.getByTestId('correlation-id')).toHaveText(response.headers()['x-correlation-id']);
  await expectAccessible(page);

  // Typed text over 100 characters is stopped by the contract's own rule before any request.
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01');
  await paste(page.getByLabel('Search head office or agent name'), 'A'.repeat(101));
  await expect(page.getByText('Search must be at most 100 characters')).toBeVisible();
  await expect(page).not.toHaveURL(/search=/);
});

test('agents screen: accessible, readable at 360 px, screenshot', async ({ page }) => {
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&search=OXXO&pageSize=10');
  await expect(page.getByRole('table', { name: 'Agents' }).locator('tbody tr')).toHaveCount(10);
  await expect(page.getByRole('list', { name: 'Data status' })).toBeVisible();
  await expectAccessible(page);
  await docsScreenshot(page, 'agents.png', { fullPage: true });

  await page.setViewportSize({ width: 360, height: 740 });
  // Nothing but the results table itself scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
  await docsScreenshot(page, 'agents-360.png');
});
