import {
  chooseCountry,
  chooseDeliveryMode,
  docsScreenshot,
  expect,
  expectAccessible,
  signIn,
  test,
  typeLikeAPerson,
} from './fixtures';

test.beforeEach(async ({ page }) => signIn(page));

test('payout networks: the networks of the country and mode with the payout type explained', async ({ page }) => {
  await page.goto('/payout-networks');
  await chooseCountry(page, 'Bangla', /Bangladesh \(BD\)/);
  await chooseDeliveryMode(page, /04 · Account Transfer to Other Bank/);
  await expect(page).toHaveURL(/\/payout-networks\?receivingCountry=BD&deliveryMode=04/);
  const table = page.getByRole('table', { name: 'Payout networks' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(table).toContainText('BRAC BANK LIMITED');
  await expect(table).toContainText('Payout anywhere within the network');
  await expect(page.getByTestId('result-total')).toHaveText(/\d+ payout networks/);
  await expectAccessible(page);
  await docsScreenshot(page, 'payout-networks.png', { fullPage: true });

  // Switching screens keeps the country and mode.
  await page.getByRole('tab', { name: 'Agents' }).click();
  await expect(page).toHaveURL(/\/agents\?receivingCountry=BD&deliveryMode=04/);
});

test('branch finder for Bangladesh: head office, bank, district filter, empty result explained', async ({ page }) => {
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04');
  // The first mode-04 head office of the country is chosen for the teller.
  await expect(page).toHaveURL(/receivingAgentHeadOfficeCode=[A-Z0-9]{6}/);
  const rows = page.getByRole('table', { name: 'Bank branches' }).locator('tbody tr');
  await expect(rows).toHaveCount(50);

  // District exists for Bangladesh only.
  const district = page.getByLabel('District', { exact: true });
  await expect(district).toBeVisible();
  await typeLikeAPerson(district, ['Sylhet']);
  await expect(page).toHaveURL(/district=Sylhet/);
  await expect(rows.first()).toContainText(/Sylhet/i);
  await typeLikeAPerson(page.getByLabel('Bank name'), ['SONALI']);
  await expect(page).toHaveURL(/bankName=SONALI/);
  await expect(rows.first()).toContainText('SONALI BANK');
  await expectAccessible(page);
  await docsScreenshot(page, 'branches.png');

  // Routing number copies in one click.
  const routing = (await rows.first().locator('td').nth(1).locator('code').textContent())!;
  await page
    .getByRole('button', { name: `Copy routing number ${routing}` })
    .first()
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(routing);

  // A bank code no head office pays into gives an empty result, and the screen says so (teller-trust.spec.ts tests
  // the other causes).
  await typeLikeAPerson(page.getByLabel('Bank code / routing number'), ['999']);
  await expect(
    page.getByText(
      /No branch of Bangladesh with the code 999 and bank name "SONALI", district "Sylhet" under any head office/,
    ),
  ).toBeVisible();

  // Reload keeps every filter.
  await page.reload();
  await expect(page.getByLabel('District', { exact: true })).toHaveValue('Sylhet');
  await expect(page.getByLabel('Bank code / routing number')).toHaveValue('999');
  await expect(page.getByText(/No branch of Bangladesh with the code 999/)).toBeVisible();
});

test('branch finder for India has no district field', async ({ page }) => {
  await page.goto('/branches?receivingCountry=IN&deliveryMode=04');
  const rows = page.getByRole('table', { name: 'Bank branches' }).locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByLabel('Bank name')).toBeVisible();
  await expect(page.getByLabel('District', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'District' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(page).toHaveURL(/pageNumber=2/);
  await expect(page.getByText(/^51–100 of/)).toBeVisible();
  await expectAccessible(page);
});

test('branch finder with another mode offers to switch to 04', async ({ page }) => {
  await page.goto('/branches?receivingCountry=BD&deliveryMode=01');
  await expect(
    page.getByText('Bank branches serve delivery mode 04 (Account Transfer to Other Bank) only.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Switch to 04' }).click();
  await expect(page).toHaveURL(/deliveryMode=04/);
  await expect(page.getByRole('table', { name: 'Bank branches' })).toBeVisible();
});
