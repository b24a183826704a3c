import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { csvRows } from '../src/testing/csv-rows';
import { clearLikeAPerson, docsScreenshot, expect, expectAccessible, signIn, test, typeLikeAPerson } from './fixtures';
import { DESK_PASSWORD, addAccount, catalogue, englishTexts, newDesk, type Messages } from './desk';

// The operations desk's records, as an analyst verifying what is served uses them: the search by IFSC, by agent
// code and by a part of a name (its state in the URL); a branch's page with every field as served; after a
// published change (a Bangladesh file staged by a maker, approved with a comment by a checker) the branch's page
// shows that version in its history — who, when, the file and its SHA-256, the field before → after. The teller's
// branch view links to the record only in a browser that holds a desk session. At 360 px the page stacks and is
// axe clean.

test.describe.configure({ mode: 'serial' });

const SEED = join(import.meta.dirname, '..', 'data', 'seed');
const BD_FILE = readFileSync(join(SEED, 'bank-branches', 'BD.csv'), 'utf8');
const HEADER = BD_FILE.split('\n', 1)[0];
const COLUMNS = HEADER.split(',');
const bd = csvRows(Buffer.from(BD_FILE));

const PASSWORD = DESK_PASSWORD;
const ANALYST = 'records-analyst';
const CHECKER = 'records-checker';

const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const toCsv = (rows: Record<string, string>[]) =>
  [HEADER, ...rows.map((row) => COLUMNS.map((column) => quote(row[column] ?? '')).join(','))].join('\n') + '\n';

// The published change: one Bangladesh branch's address line 1 corrected, staged as "add or change only" (the
// one row; other specs' changes to Bangladesh stay as they are).
const BRANCH = bd[300];
const MOVED = `${BRANCH.address_line1} (RECORDS)`;
const FILE_NAME = 'bd-records.csv';
const file = join(mkdtempSync(join(tmpdir(), 'rpl-records-')), FILE_NAME);
const content = toCsv([{ ...BRANCH, address_line1: MOVED }]);
writeFileSync(file, content);
const SHA256 = createHash('sha256').update(content).digest('hex');
const RECORD_PATH = `/ops/records/branches/BD~${BRANCH.routing_number}`;
const COMMENT = 'Address confirmed by the bank';

// A part of a name: every shipped Bangladesh branch holding it in a searched field (the file alone says which).
const NAME_PART = 'agrabad';
const nameMatches = bd.filter((row) =>
  ['bank_name', 'branch_name', 'city', 'address_line1', 'district'].some((column) =>
    (row[column] ?? '').toLowerCase().includes(NAME_PART),
  ),
).length;

async function chooseKind(page: Page, kind: string) {
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: kind }).click();
  await expect(page.locator('li[data-value]')).toHaveCount(0);
}

test('an analyst finds records by IFSC, agent code and name part; a published change is in the branch history', async ({
  browser,
}) => {
  test.setTimeout(600_000);
  addAccount(ANALYST, ['maker']);
  addAccount(CHECKER, ['checker']);
  const analyst = await newDesk(browser, ANALYST);
  const page = analyst.page;

  // 1. By IFSC, typed in lower case with pauses: the one branch, and the URL holds the search.
  await expect(page.getByRole('tab', { name: 'Records' })).toBeVisible();
  await page.getByRole('tab', { name: 'Records' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Records' })).toBeVisible();
  const q = page.getByRole('textbox', { name: 'Code, name, bank or city' });
  const rows = page.getByTestId('record-row');
  await typeLikeAPerson(q, ['abhy', '00650', '02']);
  await expect(page).toHaveURL(/\/ops\/records\?q=abhy0065002$/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('ABHYUDAYA NAGAR');
  await expect(rows.first()).toContainText('ABHY0065002');
  await expect(rows.first()).toContainText('ABHYUDAYA COOPERATIVE BANK LIMITED');
  await expect(q).toHaveValue('abhy0065002');

  // 2. By agent code.
  await chooseKind(page, 'Agents');
  await clearLikeAPerson(q);
  await typeLikeAPerson(q, ['ACCSNG', '0000', '1']);
  await expect(page).toHaveURL(/kind=agents/);
  await expect(page).toHaveURL(/q=ACCSNG00001/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Access Bank Inisa');
  await expect(rows.first()).toContainText('ACCSNG00001');

  // 3. By a part of a name, in one country (typed in lower case: the field says BD); a reload keeps it.
  await chooseKind(page, 'Bank branches');
  await clearLikeAPerson(q);
  await typeLikeAPerson(q, ['agra', 'bad']);
  await typeLikeAPerson(page.getByRole('textbox', { name: 'Country' }), ['b', 'd']);
  await expect(page).toHaveURL(/q=agrabad/);
  await expect(page).toHaveURL(/country=BD/);
  await expect(page.getByTestId('records-count')).toHaveText(`${nameMatches} records`);
  await expect(rows.filter({ hasText: 'AGRABAD' }).first()).toBeVisible();
  await page.reload();
  await expect(q).toHaveValue('agrabad');
  await expect(page.getByRole('textbox', { name: 'Country' })).toHaveValue('BD');
  await expect(page.getByTestId('records-count')).toHaveText(`${nameMatches} records`);
  await expectAccessible(page);
  await docsScreenshot(page, 'ops-records.png', { fullPage: true });

  // 4. A branch opened from the results with the keyboard: every field as served, no history yet.
  await clearLikeAPerson(q);
  await typeLikeAPerson(q, [BRANCH.routing_number.slice(0, 4), BRANCH.routing_number.slice(4)]);
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('link', { name: BRANCH.branch_name }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${RECORD_PATH}$`));
  await expect(page.getByTestId('record-name')).toHaveText(BRANCH.branch_name);
  const fields = page.getByTestId('record-fields');
  await expect(fields.locator('[data-field="addressLine1"]')).toHaveText(BRANCH.address_line1);
  await expect(fields.locator('[data-field="bankCode"]')).toHaveText(BRANCH.bank_code);
  await expect(fields.locator('[data-field="routingNumber"]')).toHaveText(BRANCH.routing_number);
  await expect(page.getByTestId('history-entry')).toHaveCount(0);
  // A maker's actions are there (the change itself is staged from a file below).
  await expect(page.getByRole('button', { name: 'Change this record' })).toBeVisible();

  // 5. The file staged by the analyst, approved with a comment by a checker.
  await page.getByRole('tab', { name: 'Upload' }).click();
  await page.getByRole('radio', { name: 'Bank branches (per country)' }).check();
  await page.getByRole('radio', { name: 'Add or change only (nothing removed)' }).check();
  await page.getByLabel('File (CSV or XLSX)').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await expect(page).toHaveURL(/\/ops\/changes\/[^/]+$/, { timeout: 60_000 });
  await expect(page.getByTestId('change-status')).toHaveText('Waiting for approval', { timeout: 120_000 });
  await expect(page.getByTestId('diff-counts')).toContainText('0 added, 1 changed, 0 removed');
  const changePath = new URL(page.url()).pathname;
  const checker = await newDesk(browser, CHECKER);
  await checker.page.goto(changePath);
  await typeLikeAPerson(checker.page.getByLabel('Comment (optional)'), ['Address confirmed ', 'by the bank']);
  await checker.page.getByRole('button', { name: 'Approve and publish' }).click();
  await expect(checker.page.getByTestId('change-status')).toHaveText('Published', { timeout: 120_000 });
  const publishedOn = new Date().getFullYear().toString();

  // 6. The record's page: the new value served, and the version in its history with who, when, file, before → after.
  await page.goto(RECORD_PATH);
  await expect(fields.locator('[data-field="addressLine1"]')).toHaveText(MOVED);
  const entry = page.getByTestId('history-entry').first();
  await expect(page.getByTestId('history-entry')).toHaveCount(1);
  await expect(entry).toContainText('Changed');
  await expect(entry.getByTestId('history-people')).toHaveText(`Staged by ${ANALYST}, approved by ${CHECKER}`);
  await expect(entry.getByTestId('history-when')).toContainText(publishedOn);
  await expect(entry.getByTestId('history-comment')).toContainText(COMMENT);
  await expect(entry.getByTestId('history-file')).toContainText(`File: ${FILE_NAME}`);
  await expect(entry.getByTestId('history-file')).toContainText(SHA256.slice(0, 12));
  await expect(entry.locator('code[data-sha256]')).toHaveAttribute('data-sha256', SHA256);
  await expect(entry.getByTestId('history-field')).toHaveCount(1);
  await expect(entry.getByTestId('history-field')).toHaveText(`before: ${BRANCH.address_line1} → after: ${MOVED}`);
  await expectAccessible(page);
  await docsScreenshot(page, 'ops-record.png', { fullPage: true });
  // The version's link leads to the versions screen, where it is the newest.
  const version = await entry.getByTestId('history-version').textContent();
  await entry.getByTestId('history-version').click();
  await expect(page).toHaveURL(/\/ops\/history$/);
  await expect(page.getByTestId('version-row').first()).toContainText(FILE_NAME);
  await expect(page.getByTestId('version-row').first()).toContainText(version!.replace('Version ', ''));

  // 7. The teller's branch view in this browser (a desk session): a link to the record's page.
  await signIn(page);
  await page.goto(`/branches?branch=BD-${BRANCH.routing_number}`);
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByTestId('branch-detail-addressLine1')).toContainText(MOVED);
  await drawer.getByRole('link', { name: 'Open in the operations desk' }).click();
  await expect(page).toHaveURL(new RegExp(`${RECORD_PATH}$`));
  await expect(page.getByTestId('history-entry')).toHaveCount(1);
  // A teller without a desk session sees nothing new.
  const teller = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tellerPage = await teller.newPage();
  await signIn(tellerPage);
  await tellerPage.goto(`/branches?branch=BD-${BRANCH.routing_number}`);
  await expect(tellerPage.getByRole('dialog').getByTestId('branch-detail-addressLine1')).toContainText(MOVED);
  await expect(tellerPage.getByRole('link', { name: 'Open in the operations desk' })).toHaveCount(0);
  await expect(tellerPage.locator('a[href^="/ops"]')).toHaveCount(0);

  await Promise.all([analyst.context.close(), checker.context.close(), teller.close()]);
});

test('a record page at 360 px: stacked, keyboard reachable, axe clean', async ({ browser }) => {
  const { context, page } = await newDesk(browser, CHECKER, 360);
  const fits = async () =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByRole('tab', { name: 'Records' }).click();
  await typeLikeAPerson(page.getByRole('textbox', { name: 'Code, name, bank or city' }), [
    BRANCH.routing_number.slice(0, 5),
    BRANCH.routing_number.slice(5),
  ]);
  await expect(page.getByTestId('record-row')).toHaveCount(1);
  await fits();
  await expectAccessible(page);
  await page.getByTestId('record-row').getByRole('link').click();
  await expect(page.getByTestId('history-entry')).toHaveCount(1);
  await fits();
  // The checker reads; only a maker has the record's actions.
  await expect(page.getByRole('button', { name: 'Change this record' })).toHaveCount(0);
  // The full SHA-256 is a keystroke away: its copy button names it.
  await expect(page.getByRole('button', { name: new RegExp(SHA256) })).toBeVisible();
  await expectAccessible(page);
  await docsScreenshot(page, 'ops-record-360.png', { fullPage: true });
  await context.close();
});

test('the records in Spanish: the search and a record page without English text', async ({ browser }) => {
  const es = catalogue('es').ops as Record<string, Record<string, string>>;
  const english = englishTexts(
    (catalogue('en').ops as Messages).records,
    (es as unknown as Record<string, Messages>).records,
  );
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-MX' });
  const page = await context.newPage();
  await page.goto('/ops');
  await typeLikeAPerson(page.getByLabel(es.signIn.name), [ANALYST.slice(0, 6), ANALYST.slice(6)]);
  await typeLikeAPerson(page.getByLabel(es.signIn.password), [PASSWORD.slice(0, 10), PASSWORD.slice(10)]);
  await page.getByRole('button', { name: es.signIn.submit }).click();
  const noEnglish = async () => {
    const text = await page.locator('body').innerText();
    expect(english.filter((phrase) => text.includes(phrase))).toEqual([]);
  };
  await page.getByRole('tab', { name: es.nav.records }).click();
  await typeLikeAPerson(page.getByRole('textbox', { name: 'Código, nombre, banco o ciudad' }), ['abhy00', '65002']);
  await expect(page.getByTestId('record-row')).toHaveCount(1);
  await expect(page.getByTestId('records-count')).toHaveText('1 registro');
  await noEnglish();
  await expectAccessible(page);
  await page.goto(RECORD_PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Registro' })).toBeVisible();
  const entry = page.getByTestId('history-entry').first();
  await expect(entry).toContainText('Modificado');
  await expect(entry.getByTestId('history-people')).toHaveText(`Preparado por ${ANALYST}, aprobado por ${CHECKER}`);
  await expect(entry.getByTestId('history-field')).toHaveText(`antes: ${BRANCH.address_line1} → después: ${MOVED}`);
  await page.getByRole('button', { name: 'Modificar este registro' }).click();
  await expect(page.getByRole('button', { name: 'Preparar el cambio' })).toBeVisible();
  await noEnglish();
  await expectAccessible(page);
  await context.close();
});
