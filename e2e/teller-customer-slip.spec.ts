import type { Locator, Page } from '@playwright/test';
import { CORRESPONDENT_ID, chooseCountry, expect, expectAccessible, signIn, test, typeLikeAPerson } from './fixtures';

// The customer slip: from a branch (or an agent) to what the teller hands the customer — one printed page, the
// same details in the clipboard, a share where the browser has one — and the payout currency on each screen.

test.beforeEach(async ({ page }) => signIn(page));

const branchRows = (page: Page) => page.getByRole('table', { name: 'Bank branches' }).locator('tbody tr');

/** The pages of a PDF: its `/Type /Page` objects (not the `/Pages` tree). */
const pdfPages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;

/** The API's answer, asked as the portal asks (the correspondent's id). */
const api = async <T>(page: Page, path: string): Promise<T> =>
  (await (await page.request.get(path, { headers: { 'x-fapi-financial-id': CORRESPONDENT_ID } })).json()) as T;

/** The served country's currency, as the API holds it. */
async function currencyOf(page: Page, code: string): Promise<string> {
  const answer = await api<{ data: { code: string; currency: string }[] }>(page, '/v1/receiving-countries');
  return answer.data.find((c) => c.code === code)!.currency;
}

/** Opens a branch of the finder by its code, typed as a teller does, and returns its detail drawer. */
async function openBranch(page: Page, url: string, code: string[]): Promise<Locator> {
  await page.goto(url);
  await typeLikeAPerson(page.getByLabel('Bank code / routing number', { exact: true }), code, [400]);
  await expect(branchRows(page)).toHaveCount(1);
  await page.getByTestId('branch-detail-link').click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByTestId('branch-detail-code')).toContainText(code.join(''));
  return drawer;
}

/** Prints the page as Chromium does (print media, A4) and returns the PDF's page count. */
async function printedPages(page: Page): Promise<number> {
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ format: 'A4' });
  return pdfPages(pdf);
}

test('an India branch: its slip prints on one page with name, bank, IFSC, address, INR and rails; copy all details', async ({
  page,
}) => {
  const drawer = await openBranch(
    page,
    '/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=FDRLIN',
    ['BARB0', 'COLIND'],
  );
  const branch = (
    await api<{ data: { branchName: string; bankName: string; branchLocation: string | null; city: string | null } }>(
      page,
      '/v1/banks/branches/IN-BARB0COLIND',
    )
  ).data;
  expect(await currencyOf(page, 'IN')).toBe('INR');
  // The drawer says the payout currency too.
  await expect(drawer.getByTestId('branch-detail-currency')).toContainText('Indian Rupee (INR)');
  await expect(page.getByTestId('payout-currency')).toHaveText('Paid out in Indian Rupee (INR)');

  await drawer.getByRole('button', { name: `Customer slip: ${branch.branchName}` }).click();
  const slip = page.getByRole('dialog').filter({ has: page.getByTestId('slip-code') });
  await expect(slip).toHaveAccessibleName(branch.branchName);
  await expect(slip.getByTestId('slip-name')).toHaveText(branch.branchName);
  await expect(slip.getByTestId('slip-bank')).toHaveText(branch.bankName);
  await expect(slip.getByTestId('slip-code')).toHaveText('BARB0COLIND');
  await expect(slip.getByText('IFSC', { exact: true })).toBeVisible();
  const address = slip.getByTestId('slip-address');
  for (const part of [branch.branchLocation, branch.city]) if (part) await expect(address).toContainText(part);
  await expect(slip.getByTestId('slip-country')).toHaveText('India');
  await expect(slip.getByTestId('slip-currency')).toHaveText('Indian Rupee (INR)');
  await expect(slip.getByTestId('slip-rails')).toContainText(/NEFT: .+, RTGS: .+, IMPS: .+, UPI: .+/);
  await expectAccessible(page);

  // Printed: the slip alone (no app bar, no drawer, no buttons), one page.
  expect(await printedPages(page)).toBe(1);
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(slip.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(slip.getByTestId('slip-code')).toBeVisible();
  const printedText = await slip.innerText();
  for (const text of [branch.branchName, branch.bankName, 'IFSC', 'BARB0COLIND', 'INR', 'NEFT', 'UPI'])
    expect(printedText).toContain(text);
  await page.emulateMedia({ media: 'screen' });

  // "Copy all details": the same rows, as plain text.
  await slip.getByRole('button', { name: 'Copy all details' }).click();
  await expect(slip.getByTestId('slip-notice')).toHaveText('All details copied.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`Branch: ${branch.branchName}`);
  expect(copied).toContain(`Bank: ${branch.bankName}`);
  expect(copied).toContain('IFSC: BARB0COLIND');
  expect(copied).toContain(`Address: ${await address.innerText()}`);
  expect(copied).toContain('Payout currency: Indian Rupee (INR)');
  expect(copied).toMatch(/Payment rails: NEFT: .+, RTGS: .+, IMPS: .+, UPI: .+/);
  // Escape closes the slip, and the branch stays open under it.
  await page.keyboard.press('Escape');
  await expect(slip).toBeHidden();
  await expect(drawer.getByTestId('branch-detail-code')).toContainText('BARB0COLIND');
});

test('share: the copy where the browser has no Web Share; navigator.share with the details where it has', async ({
  page,
  context,
}) => {
  // This browser without the Web Share API.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'share', { value: undefined }));
  const drawer = await openBranch(
    page,
    '/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=FDRLIN',
    ['BARB0C', 'OLIND'],
  );
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await drawer.getByRole('button', { name: /^Customer slip: / }).click();
  const slip = page.getByRole('dialog').filter({ has: page.getByTestId('slip-code') });
  await slip.getByRole('button', { name: 'Share' }).click();
  await expect(slip.getByTestId('slip-notice')).toHaveText('This browser cannot share: all details copied instead.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('IFSC: BARB0COLIND');
  expect(copied).toContain('Payout currency: Indian Rupee (INR)');

  // A browser with the Web Share API (a phone): the share sheet receives the same details.
  const phone = await context.newPage();
  await phone.addInitScript(() => {
    const shared: ShareData[] = [];
    Object.assign(window, { shared });
    Object.defineProperty(Navigator.prototype, 'share', {
      value: (data: ShareData) => {
        shared.push(data);
        return Promise.resolve();
      },
    });
  });
  const phoneDrawer = await openBranch(
    phone,
    '/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=FDRLIN',
    ['BARB0', 'COLIND'],
  );
  await phoneDrawer.getByRole('button', { name: /^Customer slip: / }).click();
  const phoneSlip = phone.getByRole('dialog').filter({ has: phone.getByTestId('slip-code') });
  const bank = await phoneSlip.getByTestId('slip-bank').innerText();
  await phoneSlip.getByRole('button', { name: 'Share' }).click();
  await expect(phoneSlip.getByTestId('slip-notice')).toHaveText('Details shared.');
  const calls = await phone.evaluate(() => (window as unknown as { shared: ShareData[] }).shared);
  expect(calls).toHaveLength(1);
  expect(calls[0].title).toContain('Details for the customer');
  expect(calls[0].text).toBe(copied);
  expect(calls[0].text).toContain(`Bank: ${bank}`);
});

test('a Bangladesh branch: BDT, its routing number, and none of India’s rails', async ({ page }) => {
  expect(await currencyOf(page, 'BD')).toBe('BDT');
  const drawer = await openBranch(
    page,
    '/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=SONLBD',
    ['0101', '50166'],
  );
  await expect(drawer.getByTestId('branch-detail-currency')).toContainText('BDT');
  await expect(drawer.getByTestId('branch-detail-rails')).toHaveCount(0);
  for (const rail of ['NEFT', 'RTGS', 'IMPS', 'UPI']) await expect(drawer).not.toContainText(rail);

  // The slip, opened from the keyboard.
  const open = drawer.getByRole('button', { name: /^Customer slip: / });
  await open.focus();
  await page.keyboard.press('Enter');
  const slip = page.getByRole('dialog').filter({ has: page.getByTestId('slip-code') });
  await expect(slip.getByTestId('slip-code')).toHaveText('010150166');
  await expect(slip.getByText('Routing number', { exact: true })).toBeVisible();
  await expect(slip.getByTestId('slip-country')).toHaveText('Bangladesh');
  await expect(slip.getByTestId('slip-currency')).toContainText('(BDT)');
  await expect(slip.getByTestId('slip-rails')).toHaveCount(0);
  for (const rail of ['NEFT', 'RTGS', 'IMPS', 'UPI']) await expect(slip).not.toContainText(rail);
  await expectAccessible(page);
  expect(await printedPages(page)).toBe(1);
  await page.emulateMedia({ media: 'screen' });
  await slip.getByRole('button', { name: 'Copy all details' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('Routing number: 010150166');
  expect(copied).toContain('(BDT)');
  expect(copied).not.toMatch(/NEFT|RTGS|IMPS|UPI/);
  // Escape closes it and gives the focus back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(slip).toBeHidden();
  await expect(open).toBeFocused();
});

test('Mexico: the payout-network and agent screens say MXN; an agent’s slip', async ({ page }) => {
  expect(await currencyOf(page, 'MX')).toBe('MXN');
  await page.goto('/payout-networks');
  await chooseCountry(page, 'mex', /Mexico \(MX\)/);
  await expect(page.getByRole('table', { name: 'Payout networks' })).toBeVisible();
  await expect(page.getByTestId('payout-currency')).toHaveText('Paid out in Mexican Peso (MXN)');

  await page.goto('/agents?receivingCountry=MX&deliveryMode=01');
  await expect(page.getByTestId('payout-currency')).toHaveText('Paid out in Mexican Peso (MXN)');
  await typeLikeAPerson(page.getByLabel('Search head office or agent name'), ['OX', 'XO']);
  await expect(page).toHaveURL(/search=OXXO/);
  const row = page.getByRole('table', { name: 'Agents' }).locator('tbody tr').first();
  await expect(row).toContainText('OXXO');
  const open = row.getByRole('button', { name: /^Customer slip: / });
  const name = (await open.getAttribute('aria-label'))!.replace('Customer slip: ', '');
  await open.click();
  const slip = page.getByRole('dialog', { name });
  await expect(slip.getByTestId('slip-code')).toBeVisible();
  await expect(slip.getByTestId('slip-name')).toHaveText(name);
  await expect(slip.getByTestId('slip-headOffice')).toContainText('OXXO');
  await expect(slip.getByTestId('slip-country')).toHaveText('Mexico');
  await expect(slip.getByTestId('slip-currency')).toHaveText('Mexican Peso (MXN)');
  await expect(slip.getByTestId('slip-rails')).toHaveCount(0);
  await expectAccessible(page);
  expect(await printedPages(page)).toBe(1);
  await page.emulateMedia({ media: 'screen' });
  await slip.getByRole('button', { name: 'Copy all details' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`Name: ${name}`);
  expect(copied).toContain('Payout currency: Mexican Peso (MXN)');
});
