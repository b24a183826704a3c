import { expect, signIn, test } from './fixtures';

test.beforeEach(async ({ page }) => signIn(page));

test('works with the keyboard alone, with a visible focus ring', async ({ page }) => {
  await page.goto('/');
  // A person starts once the portal is drawn (it renders in a transition, after the load event).
  await expect(page.getByLabel('Receiving country')).toBeVisible();
  // The first Tab reaches the skip link; the receiving country is chosen by typing and Enter.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  const country = page.getByLabel('Receiving country');
  for (let i = 0; i < 10 && !(await country.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(country).toBeFocused();
  await page.keyboard.type('Phil');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  // The Philippines offer several delivery modes: the portal asks; Tab to 01 and Enter.
  await expect(page).toHaveURL(/receivingCountry=PH/);
  const cashPickup = page.getByTestId('choose-mode').getByRole('button', { name: /^01 · Cash Pickup/ });
  for (let i = 0; i < 15 && !(await cashPickup.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(cashPickup).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/receivingCountry=PH&deliveryMode=01/);
  await expect(page.getByRole('table', { name: 'Agents' }).locator('tbody tr').first()).toBeVisible();

  // Tab on to the search field and type; the results follow.
  const search = page.getByLabel('Search head office or agent name');
  for (let i = 0; i < 15 && !(await search.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(search).toBeFocused();
  await page.keyboard.type('Cebuana');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/search=Cebuana/);

  // Keyboard focus on a button draws the ring.
  const exportButton = page.getByRole('button', { name: 'Export CSV' });
  for (let i = 0; i < 10 && !(await exportButton.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(exportButton).toBeFocused();
  const outline = await exportButton.evaluate(
    (el) => getComputedStyle(el).outlineStyle + ' ' + getComputedStyle(el).outlineWidth,
  );
  expect(outline).toBe('solid 3px');

  // Screens switch from the keyboard too.
  await page.getByRole('tab', { name: 'Payout networks' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/payout-networks\?receivingCountry=PH&deliveryMode=01/);
});
