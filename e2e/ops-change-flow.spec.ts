import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { csvRows } from '../src/testing/csv-rows';
import { expect, expectAccessible, test, typeLikeAPerson } from './fixtures';
import { addAccount } from './desk';

// A change flow that tells the truth, in two browsers: a maker stages three Bangladesh files while a checker's
// app bar counts the changes waiting for them, without a reload; the checker reads the other pending changes of
// the same data and comments (markup shown as text); publishing one leaves the others in the inbox marked
// "re-check" with "compare again"; approving an out-of-date change answers what happened with the new counts.

test.describe.configure({ mode: 'serial' });

const PASSPHRASE = 'flow of four eyes 2026';
const BD = readFileSync(join(import.meta.dirname, '..', 'data', 'seed', 'bank-branches', 'BD.csv'), 'utf8');
const [HEADER] = BD.split('\n', 1);
const rows = csvRows(Buffer.from(BD));
const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** BD.csv with one branch's field edited: each file differs from the served data in that one branch. */
function editedFile(name: string, index: number, column: string, value: string): string {
  const lines = rows.map((row, i) =>
    HEADER.split(',')
      .map((c) => cell(i === index && c === column ? value : (row[c] ?? '')))
      .join(','),
  );
  const path = join(dir, name);
  writeFileSync(path, [HEADER, ...lines].join('\n') + '\n');
  return path;
}
const dir = mkdtempSync(join(tmpdir(), 'rpl-flow-'));
const FILES = {
  a: editedFile('flow-a.csv', 100, 'address_line1', `${rows[100].address_line1} FLOW A`),
  b: editedFile('flow-b.csv', 200, 'city', 'Flow City'),
  c: editedFile('flow-c.csv', 300, 'branch_name', `${rows[300].branch_name} FLOW C`),
};

/** A desk in its own browser context, signed in by typing. */
async function desk(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/ops');
  await typeLikeAPerson(page.getByLabel('User name'), [name.slice(0, 5), name.slice(5)]);
  await typeLikeAPerson(page.getByLabel('Password'), [PASSPHRASE.slice(0, 7), PASSPHRASE.slice(7)]);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('ops-user')).toContainText(name);
  return page;
}

async function stage(page: Page, file: string): Promise<string> {
  await page.getByRole('tab', { name: 'Upload' }).click();
  await page.getByRole('radio', { name: 'Bank branches (per country)' }).check();
  await page.getByLabel('File (CSV or XLSX)').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await expect(page).toHaveURL(/\/ops\/changes\/[^/]+$/, { timeout: 60_000 });
  await expect(page.getByTestId('change-status')).toHaveText('Waiting for approval', { timeout: 120_000 });
  return new URL(page.url()).pathname;
}

test('the checker sees changes arrive, re-checks an out-of-date one, is told of a re-diff, comments', async ({
  browser,
}) => {
  test.setTimeout(480_000);
  addAccount('flow-maker', ['maker'], PASSPHRASE);
  addAccount('flow-checker', ['checker'], PASSPHRASE);
  const maker = await desk(browser, 'flow-maker');
  const checker = await desk(browser, 'flow-checker');

  // 1. The checker's app bar counts what waits for them, updated while the maker stages (no reload). Changes other
  // specs left waiting count too: the count is followed from what it says first.
  const waiting = checker.getByTestId('waiting-count');
  await expect(waiting).toHaveAttribute('data-count', /^\d+$/);
  const before = Number(await waiting.getAttribute('data-count'));
  const waitingName = (n: number) =>
    n === 0 ? 'Nothing waits for you' : n === 1 ? '1 change waits for you' : `${n} changes wait for you`;
  await expect(waiting).toHaveAccessibleName(waitingName(before));
  const a = await stage(maker, FILES.a);
  await expect(waiting).toHaveAttribute('data-count', String(before + 1), { timeout: 20_000 });
  await expect(waiting).toHaveAccessibleName(waitingName(before + 1));
  const b = await stage(maker, FILES.b);
  await stage(maker, FILES.c);
  await expect(waiting).toHaveAttribute('data-count', String(before + 3), { timeout: 20_000 });
  // The maker holds no checker role: nothing in their bar.
  await expect(maker.getByTestId('waiting-count')).toHaveCount(0);

  // 2. On b's page: the other pending changes of the same data, and a comment typed with pauses (markup as text).
  await checker.goto(b);
  const overlapping = checker.getByTestId('overlapping-change');
  await expect(overlapping.filter({ hasText: 'flow-a.csv' })).toHaveCount(1);
  await expect(overlapping.filter({ hasText: 'flow-c.csv' })).toHaveCount(1);
  const said = 'City checked with the bank <b>by phone</b>';
  await typeLikeAPerson(checker.getByRole('textbox', { name: 'Add a comment' }), [
    said.slice(0, 14),
    said.slice(14, 30),
    said.slice(30),
  ]);
  await expect(checker.getByRole('textbox', { name: 'Add a comment' })).toHaveValue(said);
  await checker.getByRole('button', { name: 'Add comment' }).click();
  const comment = checker.getByTestId('comment');
  await expect(comment.getByTestId('comment-text')).toHaveText(said);
  await expect(comment.getByTestId('comment-by')).toContainText('flow-checker');
  await expect(comment.locator('b')).toHaveCount(0);
  await expect(checker.getByRole('textbox', { name: 'Add a comment' })).toHaveValue('');
  await expectAccessible(checker);
  // The maker's page shows it too, by itself.
  await maker.goto(b);
  await expect(maker.getByTestId('comment-text')).toHaveText(said, { timeout: 20_000 });

  // 3. The checker publishes b: a and c were compared with data no longer served.
  await checker.getByRole('button', { name: 'Approve and publish' }).click();
  await expect(checker.getByTestId('change-status')).toHaveText('Published', { timeout: 120_000 });

  // 4. The inbox's default view keeps them, marked re-check, with "compare again".
  await checker.getByRole('tab', { name: 'Inbox' }).click();
  const row = (file: string) =>
    checker.getByRole('table', { name: 'Changes' }).getByRole('row').filter({ hasText: file });
  await expect(row('flow-c.csv')).toContainText('Out of date');
  await expect(row('flow-c.csv').getByTestId('recheck-mark')).toHaveText('re-check');
  await expect(row('flow-a.csv').getByTestId('recheck-mark')).toHaveText('re-check');
  await expect(row('flow-b.csv')).toHaveCount(0);
  await expect(waiting).toHaveAttribute('data-count', String(before + 2), { timeout: 20_000 });
  await expectAccessible(checker);
  await row('flow-c.csv').getByRole('button', { name: 'Compare again: flow-c.csv' }).click();
  await expect(row('flow-c.csv')).toContainText('Waiting for approval', { timeout: 60_000 });
  await expect(row('flow-c.csv').getByTestId('recheck-mark')).toHaveCount(0);
  await expect(row('flow-a.csv').getByTestId('recheck-mark')).toHaveText('re-check');

  // 5. Approving a (still out of date): the screen says what happened, with the new difference, never "failed".
  await row('flow-a.csv').getByRole('link', { name: 'flow-a.csv' }).click();
  await expect(checker).toHaveURL(new RegExp(`${a}$`));
  await expect(checker.getByTestId('stale-notice')).toContainText('re-check');
  await checker.getByRole('button', { name: 'Approve and publish' }).click();
  // a against b's data: its own branch changed, and b's city set back.
  await expect(checker.getByTestId('stale-answer')).toHaveText(
    'Another change was published; the difference was computed again — review it: 0 added, 2 changed, 0 removed. Then approve again.',
  );
  await expect(checker.getByTestId('problem')).toHaveCount(0);
  await expect(checker.getByTestId('change-status')).toHaveText('Waiting for approval');
  await checker.getByRole('tab', { name: 'Differences' }).click();
  await expect(checker.getByTestId('diff-counts')).toContainText('0 added, 2 changed, 0 removed');
  await expect(checker.getByTestId('diff-changed').filter({ hasText: rows[200].routing_number })).toContainText(
    'Flow City',
  );
  await expectAccessible(checker);
  await Promise.all([maker.context().close(), checker.context().close()]);
});
