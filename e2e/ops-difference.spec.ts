import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { csvRows } from '../src/testing/csv-rows';
import { clearLikeAPerson, expect, expectAccessible, test, typeLikeAPerson } from './fixtures';
import { addAccount } from './desk';

// The difference a checker can verify, in the browser: a maker stages a Bangladesh branch file that corrects one
// branch's routing number and adds a branch without a district. The checker, on a 360 px phone, reads a single
// "code changed" entry (old code → new code, not an add and a remove), searches the difference by code and by
// name (typed with pauses), reads every field of the added branch, sees the quality finding the change would add
// before approving (not "0 problems") and follows its link to the record's page; then approves.

test.describe.configure({ mode: 'serial' });

const BD_FILE = readFileSync(join(import.meta.dirname, '..', 'data', 'seed', 'bank-branches', 'BD.csv'), 'utf8');
const HEADER = BD_FILE.split('\n', 1)[0];
const COLUMNS = HEADER.split(',');
const bd = csvRows(Buffer.from(BD_FILE));
const taken = new Set(bd.map((row) => row.routing_number));

const PASSWORD = 'correct horse battery staple';
const MAKER = 'diff-maker';
const CHECKER = 'diff-checker';

const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const toCsv = (rows: Record<string, string>[]) =>
  [HEADER, ...rows.map((row) => COLUMNS.map((column) => quote(row[column] ?? '')).join(','))].join('\n') + '\n';

// The corrected branch: its routing number's bank and district digits kept, a serial the file does not use.
const CORRECTED = bd.find((row) => row.bank_code === '020' && row.branch_name === 'ASHUGANJ')!;
const NEW_CODE = ['9997', '9996', '9995']
  .map((s) => `${CORRECTED.routing_number.slice(0, 5)}${s}`)
  .find((c) => !taken.has(c))!;
// The new branch: AB Bank in Chattogram, no district (Bangladesh branches are searched by district).
const NEW_BRANCH: Record<string, string> = {
  ...bd.find((row) => row.bank_code === '020' && row.district === 'Chattogram')!,
  routing_number: ['020159981', '020159982'].find((c) => !taken.has(c))!,
  branch_name: 'HARBOUR VIEW',
  address_line1: 'HARBOUR VIEW BRANCH',
  address_line2: 'Port Road 7, Chattogram',
  city: 'Chattogram',
  district: '',
};
// AB Bank's own file (staged with that bank's scope: other specs' published changes to other banks stay out of it).
const rows = bd
  .filter((row) => row.bank_code === '020')
  .map((row) => (row === CORRECTED ? { ...row, routing_number: NEW_CODE } : row));
rows.push(NEW_BRANCH);
const file = join(mkdtempSync(join(tmpdir(), 'rpl-diff-')), 'bd-ashuganj-corrected.csv');
writeFileSync(file, toCsv(rows));

async function deskSignIn(page: Page, name: string) {
  await page.goto('/ops');
  const user = page.getByLabel('User name');
  await expect(user).toBeFocused();
  await page.keyboard.type(name.slice(0, 5), { delay: 80 });
  await page.waitForTimeout(250);
  await page.keyboard.type(name.slice(5), { delay: 90 });
  await typeLikeAPerson(page.getByLabel('Password'), [PASSWORD.slice(0, 8), PASSWORD.slice(8)]);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('ops-user')).toContainText(name);
}

async function desk(browser: Browser, name: string, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  await deskSignIn(page, name);
  return page;
}

/** Nothing wider than the screen: no sideways scrolling on a phone. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1]);
}

test('the checker searches the difference, reads a code change and every field of an added branch, sees the new quality finding, follows it, approves', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  addAccount(MAKER, ['maker'], PASSWORD);
  addAccount(CHECKER, ['checker'], PASSWORD);

  const maker = await desk(browser, MAKER, 1280);
  await maker.getByRole('tab', { name: 'Upload' }).click();
  await maker.getByRole('radio', { name: 'Bank branches (per country)' }).check();
  await maker.getByRole('radio', { name: 'One bank of one country' }).check();
  await typeLikeAPerson(maker.getByLabel('Country (ISO code, e.g. IN)'), ['B', 'D']);
  await typeLikeAPerson(maker.getByLabel('Bank code (e.g. ABHY)'), ['02', '0']);
  await expect(maker.getByTestId('scope-bank')).toHaveValue('020');
  await maker.getByLabel('File (CSV or XLSX)').setInputFiles(file);
  await maker.getByRole('button', { name: 'Upload and check' }).click();
  await expect(maker).toHaveURL(/\/ops\/changes\/[^/]+$/, { timeout: 60_000 });
  await expect(maker.getByTestId('change-status')).not.toHaveText('Validating', { timeout: 120_000 });
  const changePath = new URL(maker.url()).pathname;

  // The checker, on a phone.
  const checker = await desk(browser, CHECKER, 360);
  await checker.goto(changePath);
  await expect(checker.getByTestId('change-status')).toHaveText('Waiting for approval');
  // Not "0 problems" as if clean: the report's tab names the finding the change would add.
  await expect(checker.getByRole('tab', { name: 'Report (1 new quality finding)' })).toBeVisible();
  await checker.getByRole('tab', { name: 'Differences' }).click();
  await expect(checker.getByTestId('diff-counts')).toContainText('1 added, 1 changed, 0 removed');

  // One "code changed" entry: old code → new code, not an add and a remove.
  const codeChanged = checker.getByTestId('diff-code-changed');
  await expect(codeChanged).toHaveCount(1);
  await expect(codeChanged.getByTestId('code-change')).toHaveText(
    `Code BD · ${CORRECTED.routing_number} → BD · ${NEW_CODE} (same bank, name and address)`,
  );
  await expect(codeChanged).toContainText('ASHUGANJ');
  await expect(checker.getByTestId('diff-removed')).toHaveCount(0);

  // Searched by the old code, typed with a pause: the code change alone.
  const search = checker.getByRole('searchbox', { name: 'Search the difference' });
  await typeLikeAPerson(search, [CORRECTED.routing_number.slice(0, 4), CORRECTED.routing_number.slice(4)]);
  await expect(checker.getByTestId('diff-added')).toHaveCount(0);
  await expect(checker.getByTestId('diff-code-changed')).toHaveCount(1);
  await expect(search).toHaveValue(CORRECTED.routing_number);

  // By part of a name: the added branch alone, with every field.
  await clearLikeAPerson(search);
  await typeLikeAPerson(search, ['harb', 'our v']);
  await expect(search).toHaveValue('harbour v');
  const added = checker.getByTestId('diff-added');
  await expect(added).toHaveCount(1);
  await expect(checker.getByTestId('diff-code-changed')).toHaveCount(0);
  const fields = added.getByTestId('diff-fields');
  for (const value of [
    NEW_BRANCH.bank_name,
    NEW_BRANCH.routing_number,
    NEW_BRANCH.branch_name,
    NEW_BRANCH.address_line1,
    NEW_BRANCH.address_line2,
    NEW_BRANCH.city,
  ])
    await expect(fields).toContainText(value);
  // All ten fields, the empty district said so.
  await expect(fields.locator('dt')).toHaveCount(10);
  await expect(fields.locator('dd').filter({ hasText: '(empty)' })).toHaveCount(1);
  await expectNoSidewaysScroll(checker);
  await expectAccessible(checker);

  // Before the decision: the quality finding the change would add, linked to the record's page.
  await expect(checker.getByTestId('change-findings-count')).toHaveText(
    '1 new quality finding: review it before approving.',
  );
  const finding = checker.getByTestId('new-finding');
  await expect(finding).toHaveCount(1);
  await expect(finding).toContainText('has none');
  const link = finding.getByRole('link', {
    name: `Open the record ${NEW_BRANCH.routing_number} — ${NEW_BRANCH.bank_name}, HARBOUR VIEW`,
  });
  await expect(checker.getByRole('button', { name: 'Approve and publish' })).toBeVisible();
  const recordPath = `/ops/records/branches/BD~${NEW_BRANCH.routing_number}`;
  await expect(link).toHaveAttribute('href', recordPath);
  // Every page the link leads through (the record's page: desk routes built beside this one).
  const visited: string[] = [];
  checker.on('framenavigated', (frame) => visited.push(new URL(frame.url()).pathname));
  await link.click();
  await expect.poll(() => visited).toContain(recordPath);

  // Back on the change: the checker approves, the finding in mind.
  await checker.goBack();
  await expect(checker).toHaveURL(new RegExp(`${changePath}$`));
  await typeLikeAPerson(checker.getByLabel('Comment (optional)'), ['ASHUGANJ code ', 'corrected; district to follow']);
  await checker.getByRole('button', { name: 'Approve and publish' }).click();
  await expect(checker.getByTestId('change-status')).toHaveText('Published', { timeout: 120_000 });
});
