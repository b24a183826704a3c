import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvRows } from '../src/testing/csv-rows';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test, typeLikeAPerson } from './fixtures';

// From what the customer brings (a pasted IFSC, a typed code) to the records it names,
// and on to the branch finder filled in for a head office that pays into it, in at most 3 actions. Expected
// values come from the shipped CSV files.

const SEED = join(import.meta.dirname, '..', 'data', 'seed');
const csv = (file: string) => csvRows(readFileSync(join(SEED, file)));
const india = csv('bank-branches/IN.csv');
const partners = csv('partners.csv');

test.beforeEach(async ({ page }) => signIn(page));

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

/** Types into the focused field as a person does (keys 60–120 ms apart, a pause between parts), without a click. */
async function typeParts(page: Page, parts: string[]) {
  for (const [i, part] of parts.entries()) {
    if (i > 0) await page.waitForTimeout(150 + Math.round(Math.random() * 300));
    await page.keyboard.type(part, { delay: 60 + Math.round(Math.random() * 60) });
  }
}

const codeBox = (page: Page) => page.getByRole('textbox', { name: 'Find by code' });
const results = (page: Page, name: string) =>
  page.getByRole('table', { name }).locator('tbody tr').or(page.getByRole('list', { name }).getByRole('listitem'));

for (const viewport of [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: '390 px phone', size: { width: 390, height: 844 } },
]) {
  test.describe(viewport.name, () => {
    test.use({ viewport: viewport.size });

    test('a pasted IFSC (lower case, spaces) to the branch finder filled in, in 3 actions', async ({ page }) => {
      // A branch of a bank Federal Bank's list does not name: only the head offices paying into every bank do.
      const federal = partners.find((p) => p.head_office_code === 'FDRLIN')!.routes_to_banks.split(' ');
      const branch = india.find((r) => !federal.includes(r.bank_code))!;
      const paying = partners.filter(
        (p) =>
          p.country === 'IN' && (p.routes_to_banks === '*' || p.routes_to_banks.split(' ').includes(branch.bank_code)),
      );
      const pasted = ` ${branch.routing_number.slice(0, 4).toLowerCase()} ${branch.routing_number.slice(4).toLowerCase()} `;
      await page.goto('/');
      // The box is its own chunk, loaded right after the frame.
      await expect(codeBox(page)).toBeVisible();
      const step = steps();
      // 1: "/" puts the cursor in the code box, from anywhere outside a field.
      await step.do(() => page.keyboard.press('/'));
      await expect(codeBox(page)).toBeFocused();
      // 2: paste (the clipboard, then Ctrl+V): a pasted code is looked up at once.
      await page.evaluate((value) => navigator.clipboard.writeText(value), pasted);
      await step.do(() => page.keyboard.press('ControlOrMeta+V'));
      await expect(page).toHaveURL(new RegExp(`/code\\?code=${branch.routing_number}`));
      const match = page.getByTestId('code-match');
      await expect(match).toHaveCount(1);
      await expect(match).toContainText(branch.branch_name);
      await expect(match).toContainText(branch.bank_name);
      await expect(match).toContainText('India (IN)');
      const links = match.getByRole('link');
      await expect(links).toHaveText(paying.map((p) => `${p.head_office_name} (${p.head_office_code})`));
      await page.mouse.move(0, 0);
      await expectAccessible(page);
      // 3: the head office's link opens the branch finder on it, with the IFSC.
      const office = paying[0];
      await step.do(() => links.first().click());
      await expect(page).toHaveURL(/\/branches\?/);
      // On a phone the filters a link sets start folded into their summary, the answer on screen.
      const phone = viewport.size.width < 600;
      if (phone)
        await expect(page.getByRole('button', { name: /^Filters/, expanded: false })).toContainText(
          branch.routing_number,
        );
      const filled = async () => {
        await expect(page.getByRole('combobox', { name: 'Head office' })).toContainText(
          `${office.head_office_name} (${office.head_office_code})`,
        );
        await expect(page.getByRole('textbox', { name: 'Bank code / routing number' })).toHaveValue(
          branch.routing_number,
        );
      };
      if (!phone) await filled();
      const rows = results(page, 'Bank branches');
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(branch.routing_number);
      await expect(rows.first()).toContainText(branch.branch_name);
      await expect(page.getByTestId('result-total')).toHaveText('1 branch');
      await page.mouse.move(0, 0);
      await expectAccessible(page);
      console.log(`${viewport.name} pasted IFSC → branch finder: ${step.count} actions`);
      expect(step.count).toBeLessThanOrEqual(3);
      // The folded filters hold what the link set: opened, the head office and the IFSC are there.
      if (phone) {
        await page.getByRole('button', { name: /^Filters/, expanded: false }).click();
        await filled();
      }
    });
  });
}

test('a typed code: two kinds, an IFSC the extract does not hold, an unknown code', async ({ page }) => {
  await page.goto('/agents');
  await expect(codeBox(page)).toBeVisible();
  // A bank code of Bangladesh and of Nigeria: both listed, each with its head offices.
  await typeLikeAPerson(codeBox(page), ['03', '5']);
  await codeBox(page).press('Enter');
  const matches = page.getByTestId('code-match');
  await expect(page.getByTestId('result-total')).toHaveText('2 matches for 035');
  await expect(matches.nth(0)).toContainText('Bangladesh (BD)');
  await expect(matches.nth(0)).toContainText(csv('bank-branches/BD.csv').find((r) => r.bank_code === '035')!.bank_name);
  await expect(matches.nth(1)).toContainText('Nigeria (NG)');
  await expect(matches.nth(1)).toContainText(csv('bank-branches/NG.csv').find((r) => r.bank_code === '035')!.bank_name);
  await page.mouse.move(0, 0);
  await expectAccessible(page);

  // A real IFSC of a bank the India extract does not hold (HDFC Bank): said so, with who pays into that bank.
  // "/" again: the box's text is selected, so typing replaces it.
  await page.keyboard.press('/');
  await typeParts(page, ['hdfc ', '0000', '001']);
  await codeBox(page).press('Enter');
  await expect(page.getByTestId('issued-ifsc')).toContainText('HDFC0000001 is a real IFSC of HDFC Bank (HDFC)');
  await expect(page.getByTestId('issued-ifsc')).toContainText('ICICI BANK LIMITED (ICICIN)');
  await expect(page.getByTestId('result-total')).toHaveText('No record with the code HDFC0000001');

  // Unknown: which formats were tried.
  await page.keyboard.press('/');
  await typeParts(page, ['9999', '99999']);
  await codeBox(page).press('Enter');
  await expect(page.getByTestId('code-unknown')).toHaveText(
    /Looked up as a routing number of 9 digits of Bangladesh and as an agent code: no match/,
  );
  await page.mouse.move(0, 0);
  await expectAccessible(page);

  // Too long for any code: the box says so and nothing is looked up.
  await page.keyboard.press('/');
  await typeParts(page, ['ABCDEFGHIJ'.repeat(4), 'K']);
  await codeBox(page).press('Enter');
  await expect(page.getByText('Code must be at most 40 characters')).toBeVisible();
  await expect(page).toHaveURL(/code=999999999/);
});
