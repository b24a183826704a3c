import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from './fixtures';

// In the branch finder, after the head office, browse bank → state (division) → city
// (district); each list shows branch counts, and choosing an entry lands on a page whose count is the entry's.
// All of it is in the URL: a reload shows the same.

test.beforeEach(async ({ page }) => signIn(page));

/** "1,234 branches" → 1234. */
const total = async (page: Page) => Number((await page.getByTestId('result-total').textContent())!.replace(/\D/g, ''));

/** Opens a facet list, picks the option whose text matches, and returns the count the option showed. */
async function choose(
  page: Page,
  select: Locator,
  option: RegExp | ((options: Locator) => Locator),
): Promise<{ text: string; count: number }> {
  await select.click();
  const listbox = page.getByRole('listbox');
  const item =
    typeof option === 'function' ? option(listbox.getByRole('option')) : listbox.getByRole('option', { name: option });
  const text = (await item.textContent())!;
  const count = Number(text.split(' — ').pop()!.replace(/\D/g, ''));
  await item.click();
  return { text, count };
}

for (const { country, office, bankName, labels } of [
  {
    country: 'BD',
    office: 'SONLBD',
    bankName: /^SONALI BANK LIMITED/,
    labels: ['Browse: division', 'Browse: district'],
  },
  { country: 'IN', office: 'ICICIN', bankName: /^ALLAHABAD BANK/, labels: ['Browse: state', 'Browse: city'] },
]) {
  test(`${country}: bank → ${labels[0].split(': ')[1]} → ${labels[1].split(': ')[1]}; each page's count is the list's`, async ({
    page,
  }) => {
    await page.goto(`/branches?receivingCountry=${country}&deliveryMode=04&receivingAgentHeadOfficeCode=${office}`);
    const all = await total(page);
    await expect(page.getByTestId('result-total')).not.toHaveText('');

    const bank = await choose(page, page.getByRole('combobox', { name: 'Browse: bank' }), bankName);
    await expect(page.getByTestId('result-total')).toHaveText(new RegExp(`^${bank.count.toLocaleString('en')} branch`));
    expect(bank.count).toBeLessThan(all);
    // The bank's code is now in the finder's own field (and the URL): the table is the spec's Get Bank Branches.
    const bankCode = /\((\w+)\)/.exec(bank.text)![1];
    await expect(page.getByRole('textbox', { name: 'Bank code / routing number' })).toHaveValue(bankCode);
    await expect(page).toHaveURL(new RegExp(`bankCode=${bankCode}`));

    // The states' counts add up to the bank's; the state (division) with the most branches is chosen.
    const stateSelect = page.getByRole('combobox', { name: labels[0] });
    await stateSelect.click();
    const stateCounts = (
      await page.getByRole('listbox').getByRole('option').filter({ hasText: ' — ' }).allTextContents()
    ).map((t) => Number(t.split(' — ').pop()!.replace(/\D/g, '')));
    expect(stateCounts.reduce((a, b) => a + b, 0)).toBe(bank.count);
    await page.keyboard.press('Escape');
    const most = stateCounts.indexOf(Math.max(...stateCounts));
    const state = await choose(page, stateSelect, (options) => options.filter({ hasText: ' — ' }).nth(most));
    await expect(page.getByTestId('result-total')).toHaveText(
      new RegExp(`^${state.count.toLocaleString('en')} branch`),
    );
    await expect(page).toHaveURL(/state=\w+/);

    const citySelect = page.getByRole('combobox', { name: labels[1] });
    await citySelect.click();
    const cities = page.getByRole('listbox').getByRole('option').filter({ hasText: ' — ' });
    const cityCounts = (await cities.allTextContents()).map((t) => Number(t.split(' — ').pop()!.replace(/\D/g, '')));
    // The cities' counts add up to the state's.
    expect(cityCounts.reduce((a, b) => a + b, 0)).toBe(state.count);
    await page.keyboard.press('Escape');
    const city = await choose(page, citySelect, (options) => options.filter({ hasText: ' — ' }).last());
    const cityName = city.text.split(' — ')[0];
    await expect(page.getByTestId('result-total')).toHaveText(new RegExp(`^${city.count.toLocaleString('en')} branch`));
    await expect(page).toHaveURL(new RegExp(`city=${encodeURIComponent(cityName).replace(/%20/g, '(\\+|%20)')}`));
    const rows = page.getByRole('table', { name: 'Bank branches' }).locator('tbody tr');
    await expect(rows).toHaveCount(Math.min(city.count, 50));
    if (country === 'BD') for (const row of await rows.all()) await expect(row).toContainText(cityName);
    await page.mouse.move(0, 0);
    await expectAccessible(page);

    // Reload: the same page from the URL, the lists showing the choices.
    await page.reload();
    await expect(page.getByTestId('result-total')).toHaveText(new RegExp(`^${city.count.toLocaleString('en')} branch`));
    // The lists are comboboxes: each field holds its choice, without the count.
    await expect(page.getByRole('combobox', { name: labels[1] })).toHaveValue(cityName);
    await expect(page.getByRole('combobox', { name: 'Browse: bank' })).toHaveValue(bank.text.split(' — ')[0]);

    // Clearing a list ("all") goes back up one level.
    const cityField = page.getByRole('combobox', { name: labels[1] });
    await cityField.click();
    await cityField.press('ControlOrMeta+A');
    await cityField.press('Backspace');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('result-total')).toHaveText(
      new RegExp(`^${state.count.toLocaleString('en')} branch`),
    );
  });
}
