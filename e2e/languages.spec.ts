import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, paste, signIn, test, typeLikeAPerson } from './fixtures';

// The teller path in English and in Spanish, each language chosen by the browser (its languages,
// sent as Accept-Language), every element found by the words of that language's file, axe clean in both; and
// the language switch in the app bar, remembered across visits.

type Messages = Record<string, any>;
const messages = (code: string): Messages =>
  JSON.parse(readFileSync(join(process.cwd(), 'src', 'portal', 'locales', `${code}.json`), 'utf8'));
/** A message with its {{placeholders}} filled, as i18next does. */
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

const LANGUAGES = [
  { code: 'en', browserLocale: 'en-US', m: messages('en') },
  { code: 'es', browserLocale: 'es-MX', m: messages('es') },
];

/** The result rows (table rows on a desktop). */
const results = (page: Page, name: string) => page.getByRole('table', { name }).locator('tbody tr');

async function settleTooltips(page: Page) {
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
}

for (const { code, browserLocale, m } of LANGUAGES) {
  test.describe(`teller path in ${m.language.name} (browser ${browserLocale})`, () => {
    test.use({ locale: browserLocale, viewport: { width: 1280, height: 800 } });
    test.beforeEach(async ({ page }) => signIn(page));

    test('the routing number of Sonali Bank / Agrabad from the agent list', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', code);
      await expect(page).toHaveTitle(m.app.title);
      await expect(page.getByRole('heading', { level: 1, name: m.agents.title })).toBeVisible();
      for (const tab of [m.app.tabs.agents, m.app.tabs.payoutNetworks, m.app.tabs.branches])
        await expect(page.getByRole('tab', { name: tab })).toBeVisible();
      await typeLikeAPerson(page.getByRole('combobox', { name: m.selector.country }), ['Bangla']);
      // Country names are the interface language's own (Intl.DisplayNames: "Bangladés (BD)" in Spanish).
      await page.getByRole('option', { name: /\(BD\)/ }).click();
      await page.getByRole('combobox', { name: m.selector.deliveryMode }).click();
      await page.getByRole('option', { name: /^04/ }).click();
      await expect(page.getByTestId('branch-finder-pointer')).toContainText(m.agents.openFinder);
      const search = page.getByLabel(m.agents.search);
      await typeLikeAPerson(search, ['SONALI BANK, AGRA', 'BAD']);
      await expect(search).toHaveValue('SONALI BANK, AGRABAD');
      const row = results(page, m.agents.list).filter({ hasText: '200150163' }).first();
      await expect(row).toContainText('SONALI BANK LIMITED');
      await row
        .getByRole('button', { name: fill(m.copy.copyValue, { label: m.codes.routingNumber, value: '200150163' }) })
        .click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('200150163');
      await expect(page.getByRole('tooltip')).toHaveText(m.copy.copied);
      await settleTooltips(page);
      await expectAccessible(page);
    });

    test("OXXO in Jalisco: the count in the language's numbers, the agent code copied", async ({ page }) => {
      await page.goto('/');
      await typeLikeAPerson(page.getByRole('combobox', { name: m.selector.country }), ['mex']);
      // The count of every agent of Mexico, as the API says it, written the language's way.
      const answer = page.waitForResponse(
        (r) =>
          r.url().includes('/v1/agents?') && r.url().includes('receivingCountry=MX') && !r.url().includes('state='),
      );
      await page.getByRole('option', { name: /\(MX\)/ }).click();
      // Mexico offers several delivery modes: the portal asks for one.
      await page.getByTestId('choose-mode').getByRole('button', { name: /^01/ }).click();
      const all = (await (await answer).json()) as { pagination: { totalItems: number } };
      const formatted = new Intl.NumberFormat(code).format(all.pagination.totalItems);
      await expect(page.getByTestId('result-total')).toHaveText(fill(m.results.agents_other, { formatted }));
      await page.getByRole('combobox', { name: m.agents.state }).click();
      await page.getByRole('option', { name: /Jalisco/ }).click();
      const search = page.getByLabel(m.agents.search);
      await typeLikeAPerson(search, ['OXXO', ' Zapo', 'pan']);
      await expect(search).toHaveValue('OXXO Zapopan');
      await expect(page).toHaveURL(/state=JAL&search=OXXO(\+|%20)Zapopan/);
      const first = results(page, m.agents.list).first();
      await expect(first).toContainText('Zapopan');
      const agentCode = (await first.locator('code').first().textContent())!;
      await first
        .getByRole('button', { name: fill(m.copy.copyValue, { label: m.codes.agentCode, value: agentCode }) })
        .click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(agentCode);
      // An empty search says why, in the language: another letter case finds it.
      await search.press('ControlOrMeta+A');
      await search.press('Backspace');
      await search.pressSequentially('oxxo', { delay: 90 });
      const empty = page.getByTestId('results-empty');
      await expect(empty).toContainText(fill(m.agents.emptySearchInState, { state: 'Jalisco', search: 'oxxo' }));
      await expect(empty.getByTestId('empty-cause')).toHaveText(m.searchHelp.cause.case);
      await settleTooltips(page);
      await expectAccessible(page);
    });

    test('an IFSC from a cheque: the branch, its count in the language', async ({ page }) => {
      await page.goto('/');
      await typeLikeAPerson(page.getByRole('combobox', { name: m.selector.country }), ['ind']);
      await page.getByRole('option', { name: /India \(IN\)/ }).click();
      await page.getByRole('tab', { name: m.app.tabs.branches }).click();
      await expect(page.getByRole('heading', { level: 1, name: m.branches.title })).toBeVisible();
      await paste(page.getByLabel(m.branches.bankCode), ' BARB0AKHABA\t');
      const branch = results(page, m.branches.list);
      await expect(branch).toHaveCount(1);
      await expect(branch).toContainText('BANK OF BARODA');
      await expect(page.getByTestId('result-total')).toHaveText(fill(m.results.branches_one, { formatted: '1' }));
      await expect(page.getByTestId('export-scope')).toHaveText(fill(m.export.all_one, { formatted: '1' }));
      await expect(page.getByRole('button', { name: m.results.nextPage })).toBeDisabled();
      await expectAccessible(page);
    });
  });
}

test.describe('the language switch', () => {
  test.use({ locale: 'en-US' });
  test.beforeEach(async ({ page }) => signIn(page));

  test('an English browser switches to Spanish in the app bar; the choice is remembered on the next visit', async ({
    page,
  }) => {
    const en = messages('en');
    const es = messages('es');
    await page.goto('/payout-networks?receivingCountry=MX&deliveryMode=01');
    await expect(page.getByRole('heading', { level: 1, name: en.payoutNetworks.title })).toBeVisible();
    await page.getByRole('button', { name: fill(en.language.choose, { name: 'English' }) }).click();
    await page.getByRole('menuitem', { name: 'Español' }).click();

    await expect(page.getByRole('heading', { level: 1, name: es.payoutNetworks.title })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('tab', { name: es.app.tabs.agents })).toBeVisible();
    // The payout types explained in Spanish, from their codes; the table's header too.
    await expect(page.getByText(es.payoutNetworks.type.N).first()).toBeVisible();
    await expect(page.getByRole('columnheader', { name: es.columns.network })).toBeVisible();
    await expectAccessible(page);

    await page.goto('/agents?receivingCountry=MX&deliveryMode=01');
    await expect(page.getByRole('heading', { level: 1, name: es.agents.title })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('rpl.language'))).toBe('es');

    await page.getByRole('button', { name: fill(es.language.choose, { name: 'Español' }) }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('heading', { level: 1, name: en.agents.title })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
});
