import type { Page } from '@playwright/test';
import { expect, expectAccessible, paste, signIn, test, typeLikeAPerson } from './fixtures';

// The three teller tasks, from the first screen to the code on the clipboard, on a
// desktop and on a 390 px phone, typed with a teller's rhythm. Each user action is one counted step; the
// counts are printed and held to the numbers reported in the answer (main took more: see the README).

test.beforeEach(async ({ page }) => signIn(page));

const VIEWPORTS = [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: '390 px phone', size: { width: 390, height: 844 } },
];

/** Counts the teller's actions. */
function steps() {
  let count = 0;
  return {
    async do<T>(action: () => Promise<T>): Promise<T> {
      count++;
      return action();
    },
    get count() {
      return count;
    },
  };
}

/** The result rows, whichever form the screen gives them (table rows on a desktop, cards on a phone). */
const results = (page: Page, name: string) =>
  page.getByRole('table', { name }).locator('tbody tr').or(page.getByRole('list', { name }).getByRole('listitem'));

/** axe measures a tooltip mid-fade as low contrast: the pointer leaves the copy button and the tooltip goes first. */
async function settleTooltips(page: Page) {
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
}

async function chooseCountry(page: Page, step: ReturnType<typeof steps>, typed: string, name: RegExp) {
  await step.do(() => typeLikeAPerson(page.getByRole('combobox', { name: 'Receiving country' }), [typed]));
  await step.do(() => page.getByRole('option', { name }).click());
}

for (const viewport of VIEWPORTS) {
  test.describe(viewport.name, () => {
    test.use({ viewport: viewport.size });

    test('Sonali Bank / Agrabad: the routing number from the agent list in 6 steps', async ({ page }) => {
      const step = steps();
      await page.goto('/');
      await chooseCountry(page, step, 'Bangla', /Bangladesh \(BD\)/);
      await step.do(() => page.getByRole('combobox', { name: 'Delivery mode' }).click());
      await step.do(() => page.getByRole('option', { name: /^04/ }).click());
      await step.do(() =>
        typeLikeAPerson(page.getByLabel('Search head office or agent name'), ['SONALI BANK, AGRA', 'BAD']),
      );
      const row = results(page, 'Agents').filter({ hasText: '200150163' }).first();
      await expect(row).toContainText('SONALI BANK LIMITED');
      await step.do(() => row.getByRole('button', { name: 'Copy routing number 200150163' }).click());
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('200150163');
      await settleTooltips(page);
      await expectAccessible(page);
      console.log(`${viewport.name} Sonali/Agrabad: ${step.count} steps`);
      expect(step.count).toBe(6);
    });

    test('OXXO in Jalisco: the agent code in 7 steps', async ({ page }) => {
      const step = steps();
      await page.goto('/');
      await chooseCountry(page, step, 'mex', /Mexico \(MX\)/);
      // Mexico offers several delivery modes: the portal asks instead of taking 01: a step.
      await step.do(() => page.getByTestId('choose-mode').getByRole('button', { name: /^01/ }).click());
      await step.do(() => page.getByRole('combobox', { name: 'State' }).click());
      await step.do(() => page.getByRole('option', { name: /Jalisco/ }).click());
      await step.do(() =>
        typeLikeAPerson(page.getByLabel('Search head office or agent name'), ['OXXO', ' Zapo', 'pan']),
      );
      await expect(page.getByLabel('Search head office or agent name')).toHaveValue('OXXO Zapopan');
      await expect(page).toHaveURL(/state=JAL&search=OXXO(\+|%20)Zapopan/);
      const first = results(page, 'Agents').first();
      await expect(first).toContainText('Zapopan');
      const code = (await first.locator('code').first().textContent())!;
      await step.do(() => first.getByRole('button', { name: `Copy agent code ${code}` }).click());
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
      await settleTooltips(page);
      await expectAccessible(page);
      console.log(`${viewport.name} OXXO/Jalisco: ${step.count} steps`);
      expect(step.count).toBe(7);
    });

    test('An IFSC from a cheque: the branch in 4 steps', async ({ page }) => {
      const step = steps();
      await page.goto('/');
      await chooseCountry(page, step, 'ind', /India \(IN\)/);
      await step.do(() => page.getByRole('tab', { name: 'Bank branches' }).click());
      // Copied from a scanned cheque with a tab and a space around it.
      await step.do(() => paste(page.getByLabel('Bank code / routing number'), ' BARB0AKHABA\t'));
      const branch = results(page, 'Bank branches');
      await expect(branch).toHaveCount(1);
      await expect(branch).toContainText('BANK OF BARODA');
      await expect(page.getByTestId('result-total')).toHaveText('1 branch');
      await expectAccessible(page);
      console.log(`${viewport.name} IFSC: ${step.count} steps`);
      expect(step.count).toBe(4);
    });
  });
}
