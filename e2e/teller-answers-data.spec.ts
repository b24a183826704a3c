import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import {
  clearLikeAPerson,
  docsScreenshot,
  expect as baseExpect,
  expectAccessible,
  signIn,
  test,
  typeLikeAPerson,
} from './fixtures';

// The rows on screen are the answer's (a stable branch id as their key),
// the finder tells the truth about a real code not in our list and about a head office that does not pay into
// the bank, a branch opens in full from a link, and exports a spreadsheet and the import both read.

// The machine is shared (load average ~20 on two cores while these ran): generous waits, the same checks.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

const branchRows = (page: Page) => page.getByRole('table', { name: 'Bank branches' }).locator('tbody tr');
const total = async (page: Page) => Number((await page.getByTestId('result-total').textContent())!.replace(/\D/g, ''));

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('1. Nigeria: the rows on screen are always the answer’s, though bank + branch name repeat', async ({ page }) => {
  await page.goto('/branches?receivingCountry=NG&deliveryMode=04&receivingAgentHeadOfficeCode=ACCSNG&bankCode=057');
  await expect(page.getByTestId('result-total')).toContainText('branches');
  const location = page.getByLabel('Branch location', { exact: true });
  // Zenith Bank holds SANGO OTA and SANGO OTA 3 twice each (different addresses); each step's answer must be
  // drawn whole, with no row of the previous one left behind.
  for (const parts of [['Sango'], [' Ota'], [', Ogun']]) {
    await typeLikeAPerson(location, parts);
    await expect(page).toHaveURL(
      new RegExp(`branchLocation=${encodeURIComponent(await location.inputValue()).replace(/%20/g, '(\\+|%20)')}`),
    );
    await expect(page.getByTestId('results-stale')).toHaveCount(0);
    const shown = await total(page);
    await expect(branchRows(page)).toHaveCount(Math.min(shown, 50));
    const filter = (await location.inputValue()).toLowerCase();
    for (const text of await branchRows(page).allTextContents()) expect(text.toLowerCase()).toContain(filter);
  }
  // Back to the whole bank, then a bank name: each answer's rows are exactly its own.
  await clearLikeAPerson(location);
  await expect(page).not.toHaveURL(/branchLocation=/);
  await typeLikeAPerson(location, ['ALAUSA']);
  await clearLikeAPerson(page.getByLabel('Bank code / routing number', { exact: true }));
  await expect(page).not.toHaveURL(/bankCode=/);
  // The total read once this URL's answer is drawn, not the previous answer's while it is still on screen.
  await expect(page.getByTestId('results-stale')).toHaveCount(0);
  await expect(branchRows(page)).toHaveCount(await total(page));
  const ids = await page
    .getByTestId('branch-detail-link')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).searchParams.get('branch')));
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.every((id) => /^NG-[a-z2-7]{13}(-\d+)?$/.test(id ?? ''))).toBe(true);
});

test('2. a real IFSC not in our list: the finder says what the code box says, and who pays into that bank', async ({
  page,
}) => {
  // The code box first: what it knows of the code.
  await page.goto('/agents');
  const codeBox = page.getByRole('textbox', { name: 'Find by code' });
  await typeLikeAPerson(codeBox, ['hdfc', '0000', '001'], [300, 200]);
  await codeBox.press('Enter');
  await expect(page.getByTestId('issued-ifsc')).toContainText('HDFC0000001 is a real IFSC of HDFC Bank (HDFC)');
  await expect(page.getByTestId('issued-ifsc')).toContainText('ICICI BANK LIMITED (ICICIN)');

  // The branch finder under the Federal Bank head office, which does not pay into HDFC Bank: not "no branch",
  // but the same truth, and the head office that does pay into it, one click away.
  await page.goto('/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=FDRLIN');
  const code = page.getByLabel('Bank code / routing number', { exact: true });
  await typeLikeAPerson(code, ['HDFC0', '000001'], [400]);
  const answer = page.getByTestId('results-empty');
  await expect(answer).toContainText('HDFC0000001 is a real HDFC Bank code, not in our branch list.');
  await expect(answer).toContainText('These head offices pay into HDFC Bank:');
  await expect(answer.getByRole('button', { name: 'ICICI BANK LIMITED (ICICIN)' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Bank branches' })).toHaveCount(0);
  await expectAccessible(page);
  await answer.getByRole('button', { name: 'ICICI BANK LIMITED (ICICIN)' }).click();
  await expect(page).toHaveURL(/receivingAgentHeadOfficeCode=ICICIN/);
  await expect(page.getByTestId('results-empty')).toContainText('HDFC0000001 is a real HDFC Bank code');
});

test('3. a bank the preselected head office does not pay into: which ones do, one click, and the answer names it', async ({
  page,
}) => {
  // India preselects a head office (Federal Bank, FDRLIN): Abhyudaya Cooperative Bank is paid only through ICICI.
  await page.goto('/branches?receivingCountry=IN&deliveryMode=04');
  await expect(page.getByRole('combobox', { name: 'Head office' })).toContainText('FDRLIN');
  await expect(page.getByTestId('answer-head-office')).toHaveText('Branches FEDERAL BANK (FDRLIN) pays into:');
  const bankName = page.getByLabel('Bank name', { exact: true });
  await typeLikeAPerson(bankName, ['Abhyu', 'daya'], [450]);
  const answer = page.getByTestId('results-empty');
  await expect(answer).toContainText('FEDERAL BANK (FDRLIN) does not pay into Abhyudaya. Head offices that do:');
  await expectAccessible(page);
  await answer.getByRole('button', { name: 'ICICI BANK LIMITED (ICICIN)' }).click();
  await expect(page).toHaveURL(/receivingAgentHeadOfficeCode=ICICIN/);
  await expect(page).toHaveURL(/bankName=Abhyudaya/);
  await expect(page.getByTestId('answer-head-office')).toHaveText('Branches ICICI BANK LIMITED (ICICIN) pays into:');
  const rows = branchRows(page);
  await expect(rows.first()).toContainText(/ABHYUDAYA/);
  expect(await total(page)).toBeGreaterThan(0);
  for (const text of await rows.allTextContents()) expect(text).toContain('ABHYUDAYA');
});

test('13. a branch in full: deep link, every field with its copy button, the country’s name for the code', async ({
  page,
}) => {
  await page.goto('/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=FDRLIN');
  // The column says what India calls the code.
  await expect(page.getByRole('columnheader', { name: 'IFSC' })).toBeVisible();
  await typeLikeAPerson(page.getByLabel('Bank code / routing number', { exact: true }), ['BARB0', 'COLIND']);
  await expect(branchRows(page)).toHaveCount(1);
  await page.getByTestId('branch-detail-link').click();
  await expect(page).toHaveURL(/branch=IN-BARB0COLIND/);
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByTestId('branch-detail-code')).toContainText('BARB0COLIND');
  await expect(drawer.getByText('IFSC', { exact: true })).toBeVisible();
  await expect(drawer.getByTestId('branch-detail-bankName')).toContainText('BANK OF BARODA');
  await expect(drawer.getByTestId('branch-detail-micr')).toContainText('not held');
  await expect(drawer.getByTestId('branch-detail-rails')).toContainText('NEFT: not held');
  await expect(drawer.getByTestId('branch-detail-head-offices')).toContainText('FDRLIN');
  await drawer.getByRole('button', { name: 'Copy IFSC BARB0COLIND' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('BARB0COLIND');
  await page.setViewportSize({ width: 1280, height: 800 });
  await docsScreenshot(page, 'branch-detail-desktop.png');
  await expectAccessible(page);

  // The link alone opens the same branch (a new tab, a link sent to a colleague), on a phone too.
  const url = page.url();
  await page.goto('/branches?branch=IN-BARB0COLIND');
  await expect(page.getByRole('dialog').getByTestId('branch-detail-code')).toContainText('BARB0COLIND');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url);
  await expect(page.getByRole('dialog').getByTestId('branch-detail-branchId')).toContainText('IN-BARB0COLIND');
  await docsScreenshot(page, 'branch-detail-phone.png');
  await expectAccessible(page);
  // Closing it goes back to the list.
  await page.getByRole('button', { name: 'Close the branch details' }).click();
  await expect(page).not.toHaveURL(/branch=/);

  // Bangladesh calls it a routing number.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=SONLBD');
  await expect(page.getByRole('columnheader', { name: 'Routing number' })).toBeVisible();
  await branchRows(page).first().getByTestId('branch-detail-link').click();
  await expect(page.getByRole('dialog').getByText('Routing number', { exact: true })).toBeVisible();
});

test('14. exports: XLSX with codes and phones as text cells; CSV in the import format', async ({ page }) => {
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=SONLBD');
  await typeLikeAPerson(page.getByLabel('Bank code / routing number', { exact: true }), ['0101', '50166']);
  await expect(branchRows(page)).toHaveCount(1);
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await csvDownload).path(), 'utf8').replace(/^\uFEFF/, '');
  expect(csv.split('\n')[0]).toBe(
    'country,bank_code,bank_name,routing_number,branch_name,address_line1,address_line2,city,district,state',
  );
  expect(csv.split('\n')[1]).toMatch(/^BD,010,AGRANI BANK LIMITED,010150166,/);
  expect(csv).not.toContain('="');

  const xlsxDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export XLSX' }).click();
  const xlsx = await xlsxDownload;
  expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await xlsx.path());
  const sheet = book.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  const routing = sheet.getRow(2).getCell(header.indexOf('Routing number') + 1);
  expect(routing.value).toBe('010150166');
  expect(routing.type).toBe(ExcelJS.ValueType.String);

  // Agents: phone numbers as text cells in the XLSX; in the CSV a phone starts with a sign, so it gets the
  // apostrophe every formula-looking cell gets (the importer reads it back without it).
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&state=JAL&search=OXXO&pageSize=10');
  await expect(page.getByRole('table', { name: 'Agents' }).locator('tbody tr')).toHaveCount(10);
  const agentsCsv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const agentLines = readFileSync(await (await agentsCsv).path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n');
  expect(agentLines[0]).toBe(
    'agent_code,head_office_code,country,agent_name,address_line1,address_line2,city,state,phone_number',
  );
  expect(agentLines.length - 1).toBe(await total(page));
  expect(agentLines.some((line) => /,'\+52 [\d ]+$/.test(line))).toBe(true);
  expect(agentLines.some((line) => line.includes(',+52'))).toBe(false);
  const agentsXlsx = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export XLSX' }).click();
  const agentBook = new ExcelJS.Workbook();
  await agentBook.xlsx.readFile(await (await agentsXlsx).path());
  const agentSheet = agentBook.worksheets[0];
  const phoneColumn = (agentSheet.getRow(1).values as unknown[]).indexOf('Phone');
  const phone = agentSheet.getRow(2).getCell(phoneColumn);
  expect(String(phone.value)).toMatch(/^\+52 /);
  expect(phone.type).toBe(ExcelJS.ValueType.String);
  expect(agentSheet.rowCount - 1).toBe(await total(page));
});
