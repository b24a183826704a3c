import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { csvRows } from '../src/testing/csv-rows';
import { expect, expectAccessible, test, typeLikeAPerson } from './fixtures';
import { addAccount } from './desk';

// A bank sends only its own branches (ABHY, India) in its own layout — no country column,
// no bank code, no address line 2. Through the column mapping (a fixed country IN, the bank code from the IFSC)
// and staged with that bank's scope, the difference touches ABHY only (0 removed outside it) and blanks nothing
// the file does not carry; the same file staged without a scope is flagged by the removal guard.

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'correct horse battery staple';
const MAKER = 'scope-maker';
const CHECKER = 'scope-checker';

const IN = csvRows(readFileSync(join(import.meta.dirname, '..', 'data', 'seed', 'bank-branches', 'IN.csv')));
const ABHY = IN.filter((row) => row.bank_code === 'ABHY');
const RENAMED = ABHY[3];
// The bank's own export: its headings, its column order, one branch renamed.
const HEADINGS: [string, string][] = [
  ['IFSC Code', 'routing_number'],
  ['Branch', 'branch_name'],
  ['Bank Name', 'bank_name'],
  ['Address', 'address_line1'],
  ['City', 'city'],
  ['District', 'district'],
  ['State', 'state'],
];
const n = (value: number) => value.toLocaleString('en-US');
const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const dir = mkdtempSync(join(tmpdir(), 'rpl-scope-'));
const FILE = join(dir, 'abhy-branches.csv');
writeFileSync(
  FILE,
  [HEADINGS.map(([heading]) => heading).join(',')]
    .concat(
      ABHY.map((row) =>
        HEADINGS.map(([, field]) =>
          quote(row === RENAMED && field === 'branch_name' ? `${row.branch_name} CENTRAL` : row[field]),
        ).join(','),
      ),
    )
    .join('\n') + '\n',
);

async function desk(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/ops');
  await typeLikeAPerson(page.getByLabel('User name'), [name.slice(0, 5), name.slice(5)]);
  await typeLikeAPerson(page.getByLabel('Password'), [PASSWORD.slice(0, 9), PASSWORD.slice(9)]);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('ops-user')).toContainText(name);
  return page;
}

/** The ABHY file through the mapping (country IN fixed, bank code from the IFSC), with or without its scope. */
async function stageAbhy(page: Page, scoped: boolean): Promise<string> {
  await page.getByRole('tab', { name: 'Upload' }).click();
  await page.getByRole('radio', { name: 'Bank branches (per country)' }).check();
  if (scoped) {
    await page.getByRole('radio', { name: 'One bank of one country' }).check();
    await typeLikeAPerson(page.getByLabel('Country (ISO code, e.g. IN)'), ['I', 'N']);
    await typeLikeAPerson(page.getByLabel('Bank code (e.g. ABHY)'), ['AB', 'HY']);
    await expect(page.getByTestId('scope-country')).toHaveValue('IN');
    await expect(page.getByTestId('scope-bank')).toHaveValue('ABHY');
  }
  await page.getByLabel('File (CSV or XLSX)').setInputFiles(FILE);
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeVisible();
  // Neither the country nor the bank code is a column: until the country is given, both are missing.
  await expect(page.getByText(/Still to map \(required\): country/)).toBeVisible();
  const country = page.getByLabel('Country of every row (no column gives it)');
  await typeLikeAPerson(country, ['i', 'n']);
  await expect(country).toHaveValue('IN');
  await expect(page.getByLabel('Bank code: the first four characters of the IFSC')).toBeChecked();
  await expect(page.getByText(/Still to map/)).toHaveCount(0);
  if (scoped) await expectAccessible(page);
  await page.getByRole('button', { name: 'Upload with this mapping' }).click();
  await expect(page).toHaveURL(/\/ops\/changes\/[^/]+$/, { timeout: 60_000 });
  await expect(page.getByTestId('change-status')).not.toHaveText('Validating', { timeout: 120_000 });
  return page.url().split('/').at(-1)!;
}

test('a one-bank India file: with its bank scope nothing outside ABHY moves; without a scope the guard flags it', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  addAccount(MAKER, ['maker'], PASSWORD);
  addAccount(CHECKER, ['checker'], PASSWORD);
  const maker = await desk(browser, MAKER);
  const checker = await desk(browser, CHECKER);

  // With the bank's scope: one branch changed, nothing removed, ABHY the only bank in the counts.
  const scoped = await stageAbhy(maker, true);
  await expect(maker.getByTestId('change-scope')).toHaveText('Scope: bank ABHY of India only');
  await expect(maker.getByTestId('diff-counts')).toContainText(
    `0 added, 1 changed, 0 removed, ${ABHY.length - 1} unchanged`,
  );
  const banks = maker.getByRole('table', { name: 'Counts per bank' });
  await expect(banks.getByRole('row')).toHaveCount(2);
  await expect(banks.getByRole('row').nth(1)).toContainText('ABHY');
  // The renamed branch: its name only; address line 2, which the file does not carry, is not blanked.
  const changed = maker.getByTestId('diff-changed');
  await expect(changed).toHaveCount(1);
  await expect(changed).toContainText(RENAMED.routing_number);
  await expect(changed.getByTestId('field-change')).toHaveCount(1);
  await expect(changed.getByTestId('field-change')).toContainText(`${RENAMED.branch_name} CENTRAL`);
  await expect(maker.getByTestId('diff-removed')).toHaveCount(0);
  await expectAccessible(maker);
  // The checker sees no removal guard on it.
  await checker.goto(`/ops/changes/${scoped}`);
  await expect(checker.getByTestId('diff-counts')).toContainText('0 removed');
  await expect(checker.getByRole('button', { name: /^Approve/ })).toBeVisible();
  await expect(checker.getByTestId('guard-flag')).toHaveCount(0);

  // The same file without a scope: India's other banks would go, and the guard says so.
  const whole = await stageAbhy(maker, false);
  await expect(maker.getByTestId('change-scope')).toHaveText(/^Scope: the whole kind/);
  await expect(maker.getByTestId('diff-counts')).toContainText(`${n(IN.length - ABHY.length)} removed`);
  await checker.goto(`/ops/changes/${whole}`);
  await expect(checker.getByTestId('guard-flag')).toContainText(
    `IN: ${n(IN.length - ABHY.length)} of ${n(IN.length)} rows`,
  );
});
