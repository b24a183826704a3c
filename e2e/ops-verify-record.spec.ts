import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { csvRows } from '../src/testing/csv-rows';
import { addAccount, newDesk } from './desk';
import { clearLikeAPerson, docsScreenshot, expect, signIn, test, typeLikeAPerson } from './fixtures';

// Verifying what is served, end to end: a teller reports a wrong IFSC from the branch view; an analyst (maker)
// finds the report in the desk's queue, opens the record's page from it, reads its history (who, when, which
// file, before → after), corrects the IFSC with "Change this record"; a checker in another browser approves; the
// record's page shows that version at the top of its history, the teller's search answers the corrected IFSC (and
// no longer the wrong one), and the analyst closes the report with the change's id. The record's history is made
// first: one file of that branch's bank, staged with the bank's scope and approved.

const IN = csvRows(readFileSync(join(import.meta.dirname, '..', 'data', 'seed', 'bank-branches', 'IN.csv')));
// State Bank of Patiala: one branch, paid into by Federal Bank's network (FDRLIN).
const BRANCH = IN.find((row) => row.bank_code === 'STBP')!;
const WRONG = BRANCH.routing_number; // STBP0000675
const RIGHT = `${WRONG.slice(0, 9)}${WRONG[10]}${WRONG[9]}`; // the last two digits transposed: STBP0000657
const ADDRESS = `${BRANCH.address_line1}, G.T. ROAD`;
const HEADER = 'country,bank_code,bank_name,routing_number,branch_name,address_line1,address_line2,city,district,state';
const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const FILE_NAME = 'stbp-branches.csv';
const FILE = join(mkdtempSync(join(tmpdir(), 'rpl-verify-')), FILE_NAME);
writeFileSync(
  FILE,
  `${HEADER}\n${HEADER.split(',')
    .map((column) => quote(column === 'address_line1' ? ADDRESS : (BRANCH[column] ?? '')))
    .join(',')}\n`,
);

const ANALYST = 'verify-analyst';
const CHECKER = 'verify-checker';
const TELLER_VIEW = '/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=FDRLIN';
const recordPath = (ifsc: string) => `/ops/records/branches/IN~${ifsc}`;

/** The checker approves the change at `path` with a comment, and sees it published. */
async function approve(page: Page, path: string, comment: string[]) {
  await page.goto(path);
  await typeLikeAPerson(page.getByLabel('Comment (optional)'), comment);
  await page.getByRole('button', { name: 'Approve and publish' }).click();
  await expect(page.getByTestId('change-status')).toHaveText('Published', { timeout: 120_000 });
}

/** The teller types a code into the branch finder (the Federal Bank network of India). */
async function tellerSearches(page: Page, code: string) {
  await page.goto(TELLER_VIEW);
  await typeLikeAPerson(page.getByLabel('Bank code / routing number', { exact: true }), [
    code.slice(0, 5),
    code.slice(5),
  ]);
}

test('a teller reports a wrong IFSC; the analyst fixes the one record; a checker approves; the report is closed', async ({
  browser,
}) => {
  test.setTimeout(600_000);
  addAccount(ANALYST, ['maker']);
  addAccount(CHECKER, ['checker']);
  const analyst = await newDesk(browser, ANALYST);
  const checker = await newDesk(browser, CHECKER);
  const desk = analyst.page;

  // 0. The record's history: the bank's own file (its one branch, a longer address), scoped to that bank.
  await desk.getByRole('tab', { name: 'Upload' }).click();
  await desk.getByRole('radio', { name: 'Bank branches (per country)' }).check();
  await desk.getByRole('radio', { name: 'One bank of one country' }).check();
  await typeLikeAPerson(desk.getByLabel('Country (ISO code, e.g. IN)'), ['I', 'N']);
  await typeLikeAPerson(desk.getByLabel('Bank code (e.g. ABHY)'), ['ST', 'BP']);
  await desk.getByLabel('File (CSV or XLSX)').setInputFiles(FILE);
  await expect(desk.getByRole('button', { name: 'Upload and check' })).toBeEnabled();
  await docsScreenshot(desk, 'verify-scope.png', { fullPage: true });
  await desk.getByRole('button', { name: 'Upload and check' }).click();
  await expect(desk).toHaveURL(/\/ops\/changes\/[^/]+$/, { timeout: 60_000 });
  await expect(desk.getByTestId('change-status')).toHaveText('Waiting for approval', { timeout: 120_000 });
  await expect(desk.getByTestId('change-scope')).toHaveText('Scope: bank STBP of India only');
  await expect(desk.getByTestId('diff-counts')).toContainText('0 added, 1 changed, 0 removed');
  await approve(checker.page, new URL(desk.url()).pathname, ['The bank sent ', 'its branch list']);

  // 1. The teller: the branch found by its IFSC, a wrong routing number reported with a note.
  const teller = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const tellerPage = await teller.newPage();
  await signIn(tellerPage);
  await tellerSearches(tellerPage, WRONG);
  await tellerPage.getByTestId('branch-detail-link').click();
  const drawer = tellerPage.getByRole('dialog');
  await expect(drawer.getByTestId('branch-detail-code')).toContainText(WRONG);
  await expect(drawer.getByTestId('branch-detail-addressLine1')).toContainText(ADDRESS);
  await drawer.getByRole('button', { name: `Report a problem with ${BRANCH.branch_name}` }).click();
  const dialog = tellerPage.getByRole('dialog', { name: 'Report a problem with this record' });
  await expect(dialog).toContainText(`${BRANCH.branch_name} (${WRONG})`);
  await expect(dialog.getByRole('radio', { name: 'Wrong routing number or code' })).toBeChecked();
  const note = ['The customer’s cheque ', `says ${RIGHT}`];
  await typeLikeAPerson(dialog.getByRole('textbox', { name: 'Note for operations' }), note);
  await docsScreenshot(tellerPage, 'verify-teller-report.png');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  const confirmation = dialog.getByTestId('report-confirmation');
  await expect(confirmation).toContainText('Your reference: R-');
  const reference = /Your reference: (R-[0-9A-Z]{8})/.exec(await confirmation.innerText())![1];
  await dialog.getByRole('button', { name: 'Close' }).click();

  // 2. The analyst finds the report in the queue and opens the record's page from it.
  await desk.getByRole('tab', { name: 'Reports' }).click();
  const report = desk.locator(`[data-testid="report-row"][data-report-id="${reference}"]`);
  await expect(report).toContainText(`Bank branches IN ${WRONG}`);
  await expect(report).toContainText('Wrong routing number or code');
  await expect(report).toContainText(note.join(''));
  await docsScreenshot(desk, 'verify-reports.png', { fullPage: true });
  await report.getByRole('link', { name: `Open the record IN~${WRONG}` }).click();
  await expect(desk).toHaveURL(new RegExp(`${recordPath(WRONG)}$`));

  // 3. Its page: the fields as served and its history — who, when, which file, before → after.
  await expect(desk.getByTestId('record-name')).toHaveText(BRANCH.branch_name);
  const fields = desk.getByTestId('record-fields');
  await expect(fields.locator('[data-field="routingNumber"]')).toHaveText(WRONG);
  await expect(fields.locator('[data-field="addressLine1"]')).toHaveText(ADDRESS);
  const history = desk.getByTestId('history-entry');
  await expect(history).toHaveCount(1);
  await expect(history.first()).toContainText('Changed');
  await expect(history.first().getByTestId('history-people')).toHaveText(
    `Staged by ${ANALYST}, approved by ${CHECKER}`,
  );
  await expect(history.first().getByTestId('history-when')).toContainText(new Date().getFullYear().toString());
  await expect(history.first().getByTestId('history-file')).toContainText(`File: ${FILE_NAME}`);
  await expect(history.first().getByTestId('history-field')).toHaveText(
    `before: ${BRANCH.address_line1} → after: ${ADDRESS}`,
  );
  // The teller's report is on the record's page too.
  const onRecord = desk.getByTestId('record-reports').locator(`[data-report-id="${reference}"]`);
  await expect(onRecord).toContainText(note.join(''));
  await docsScreenshot(desk, 'verify-history.png', { fullPage: true });
  const firstVersion = (await history.first().getByTestId('history-version').innerText()).trim();

  // 4. The one record fixed with the form: the IFSC corrected, typed with a pause.
  await desk.getByRole('button', { name: 'Change this record' }).click();
  const ifsc = desk.locator('input[data-field="routingNumber"]');
  await expect(ifsc).toHaveValue(WRONG);
  await clearLikeAPerson(ifsc);
  await typeLikeAPerson(ifsc, [RIGHT.slice(0, 6), RIGHT.slice(6)]);
  await expect(ifsc).toHaveValue(RIGHT);
  await docsScreenshot(desk, 'verify-fix.png', { fullPage: true });
  await desk.getByRole('button', { name: 'Stage the change' }).click();
  await expect(desk).toHaveURL(/\/ops\/changes\/[^/]+$/, { timeout: 60_000 });
  await expect(desk.getByTestId('change-status')).toHaveText('Waiting for approval', { timeout: 120_000 });
  const changeId = new URL(desk.url()).pathname.split('/').at(-1)!;
  // The difference is this record only, its code changed: one entry, the wrong IFSC → the right one.
  await expect(desk.getByTestId('diff-counts')).toContainText('0 added, 1 changed, 0 removed');
  await expect(desk.getByTestId('diff-code-changed')).toContainText(RIGHT);
  await expect(desk.getByTestId('code-change')).toContainText(`${WRONG} → IN · ${RIGHT}`);

  // 5. The checker approves it.
  await approve(checker.page, `/ops/changes/${changeId}`, ['IFSC checked ', 'with the bank']);

  // 6. The record's page: the new version at the top of its history; the corrected record is served.
  await desk.goto(recordPath(WRONG));
  await expect(history).toHaveCount(2);
  // The old code's record ends with the code change (its history is kept under both codes).
  await expect(history.first()).toContainText('Changed');
  await expect(history.first().getByTestId('history-people')).toHaveText(
    `Staged by ${ANALYST}, approved by ${CHECKER}`,
  );
  await expect(history.first().getByTestId('history-version')).not.toHaveText(firstVersion);
  await expect(history.nth(1).getByTestId('history-version')).toHaveText(firstVersion);
  // Found again from Records by the corrected IFSC, typed in lower case.
  await desk.getByRole('tab', { name: 'Records' }).click();
  await typeLikeAPerson(desk.getByRole('textbox', { name: 'Code, name, bank or city' }), [
    RIGHT.slice(0, 4).toLowerCase(),
    RIGHT.slice(4),
  ]);
  const found = desk.getByTestId('record-row');
  await expect(found).toHaveCount(1);
  await expect(found).toContainText(RIGHT);
  await expect(found).toContainText(BRANCH.bank_name);
  await docsScreenshot(desk, 'verify-find.png', { fullPage: true });
  await found.getByRole('link', { name: BRANCH.branch_name }).click();
  await expect(desk).toHaveURL(new RegExp(`${recordPath(RIGHT)}$`));
  await expect(fields.locator('[data-field="routingNumber"]')).toHaveText(RIGHT);
  await expect(fields.locator('[data-field="addressLine1"]')).toHaveText(ADDRESS);
  await expect(history.first()).toContainText('Changed');
  await expect(history.first().getByTestId('history-comment')).toContainText('IFSC checked with the bank');

  // 7. The teller's answer changes: the right IFSC finds the branch, the wrong one nothing.
  await tellerSearches(tellerPage, RIGHT);
  await tellerPage.getByTestId('branch-detail-link').click();
  await expect(drawer.getByTestId('branch-detail-code')).toContainText(RIGHT);
  await expect(drawer.getByTestId('branch-detail-branchName')).toContainText(BRANCH.branch_name);
  await expect(drawer.getByTestId('branch-detail-addressLine1')).toContainText(ADDRESS);
  await tellerSearches(tellerPage, WRONG);
  await expect(
    tellerPage.getByRole('status').filter({ hasText: `No branch of India with the code ${WRONG}` }),
  ).toBeVisible();
  await expect(tellerPage.getByTestId('branch-detail-link')).toHaveCount(0);

  // 8. The analyst closes the report with the change's id; the report shows closed with it.
  await desk.getByRole('tab', { name: 'Reports' }).click();
  await report.getByRole('button', { name: `Close report ${reference}` }).click();
  const close = desk.getByRole('dialog', { name: `Close report ${reference}` });
  const fixedBy = close.getByRole('textbox', { name: 'Fixed by (change id or version)' });
  await typeLikeAPerson(fixedBy, [changeId.slice(0, 8), changeId.slice(8)]);
  await expect(fixedBy).toHaveValue(changeId);
  await close.getByRole('button', { name: 'Close report' }).click();
  await expect(close).toBeHidden();
  await desk.getByRole('combobox', { name: 'Status' }).click();
  await desk.getByRole('option', { name: 'Closed' }).click();
  await expect(report.getByTestId('report-closed')).toContainText(`Closed by ${ANALYST}`);
  await expect(report.getByTestId('report-closed')).toContainText(changeId);

  // The record's page says the same.
  await desk.goto(recordPath(WRONG));
  await expect(onRecord.getByTestId('report-closed')).toContainText(`Closed by ${ANALYST}`);
  await expect(onRecord.getByTestId('report-closed')).toContainText(changeId);

  // The versions, for the manual: the newest is the correction.
  await desk.getByRole('tab', { name: 'History' }).click();
  await expect(desk.getByTestId('version-row').first()).toContainText('edits.json');
  await docsScreenshot(desk, 'verify-versions.png', { fullPage: true });

  await Promise.all([analyst.context.close(), checker.context.close(), teller.close()]);
});
