import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { csvRows } from '../src/testing/csv-rows';
import { docsScreenshot, expect, expectAccessible, signIn, test, typeLikeAPerson } from './fixtures';
import { DESK_PASSWORD, addAccount, catalogue, deskSignIn, englishTexts, newDesk } from './desk';

// The operations desk in the browser, as its people use it. A maker (who also holds
// the checker role: the four-eyes rule refuses their own change whatever their roles) uploads a Bangladesh
// branch file with 3 broken rows, reads the errors, uploads the corrected file and sees 1 added and 2 changed
// branches field by field; their own approve is refused (the screen says so, the API answers 403); a checker,
// in another browser context, approves; a teller's search finds the new branch. A rollback from the history
// (staged by the maker, approved by the checker) brings the previous answers back. Every ops screen is axe
// clean, the main ones work at 360 px, and the Spanish desk shows no English text. Screenshots of each screen
// go to docs/screenshots/ops-*.png (docs/operations-desk.md).

test.describe.configure({ mode: 'serial' });

const SEED = join(import.meta.dirname, '..', 'data', 'seed');
const BD_FILE = readFileSync(join(SEED, 'bank-branches', 'BD.csv'), 'utf8');
const HEADER = BD_FILE.split('\n', 1)[0];
const COLUMNS = HEADER.split(',');
const bd = csvRows(Buffer.from(BD_FILE));

const PASSWORD = DESK_PASSWORD;
const MAKER = 'desk-maker';
const CHECKER = 'desk-checker';
const ADMIN = 'desk-admin';

const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const toCsv = (rows: Record<string, string>[]) =>
  [HEADER, ...rows.map((row) => COLUMNS.map((column) => quote(row[column] ?? '')).join(','))].join('\n') + '\n';

// The new branch: AB Bank (020) in Chattogram (district code 15), a routing number the file does not hold.
const taken = new Set(bd.map((row) => row.routing_number));
const NEW_ROUTING = ['020159991', '020159992', '020159993'].find((routing) => !taken.has(routing))!;
const NEW_BRANCH = {
  ...bd.find((row) => row.bank_code === '020' && row.district === 'Chattogram')!,
  routing_number: NEW_ROUTING,
  branch_name: 'DESK NEW PORT',
  address_line1: 'DESK NEW PORT BRANCH',
  city: 'Chattogram',
};
// Two changed branches: a new address line for the first, a city for the second.
const CHANGED = [bd[100], bd[200]];
const corrected = bd.map((row) =>
  row === CHANGED[0]
    ? { ...row, address_line1: `${row.address_line1} (MOVED)` }
    : row === CHANGED[1]
      ? { ...row, city: 'Desk City' }
      : row,
);
corrected.push(NEW_BRANCH);
// Three broken rows (file lines 12, 22 and 32: the header is line 1): a routing number of letters, a routing
// number of another bank, and no bank code at all.
const broken = corrected.map((row, index) =>
  index === 10
    ? { ...row, routing_number: 'ABCDEFGHI' }
    : index === 20
      ? { ...row, routing_number: `999${row.routing_number.slice(3)}` }
      : index === 30
        ? { ...row, bank_code: '' }
        : row,
);

const dir = mkdtempSync(join(tmpdir(), 'rpl-desk-'));
const files = {
  broken: join(dir, 'bd-branches-broken.csv'),
  corrected: join(dir, 'bd-branches.csv'),
  mapped: join(dir, 'bd-branches-own-header.csv'),
};
writeFileSync(files.broken, toCsv(broken));
writeFileSync(files.corrected, toCsv(corrected));
// The same branches under headings of the operator's own (a header the desk does not know: mapped by hand).
writeFileSync(
  files.mapped,
  ['Country,Bank,Bank Name,Routing No,Branch,Address,Address 2,Town,District,Division']
    .concat(corrected.slice(0, 5).map((row) => COLUMNS.map((column) => quote(row[column] ?? '')).join(',')))
    .join('\n') + '\n',
);

/** Uploads a branch file and waits for its change screen with validation done. */
async function upload(page: Page, file: string) {
  await page.getByRole('tab', { name: 'Upload' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Upload a file' })).toBeVisible();
  await page.getByRole('radio', { name: 'Bank branches (per country)' }).check();
  await page.getByLabel('File (CSV or XLSX)').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await expect(page).toHaveURL(/\/ops\/changes\/[^/]+$/, { timeout: 60_000 });
  await expect(page.getByTestId('change-status')).not.toHaveText('Validating', { timeout: 120_000 });
}

/** The teller's code box: the routing number typed with pauses, then the match (or none). */
async function tellerLooksUp(page: Page, routing: string) {
  await page.goto('/agents');
  const box = page.getByRole('textbox', { name: 'Find by code' });
  await expect(box).toBeVisible();
  await typeLikeAPerson(box, [routing.slice(0, 3), routing.slice(3, 6), routing.slice(6)]);
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/code\\?code=${routing}`));
}

test('maker stages, reads the errors, corrects; own approve refused; checker approves; teller finds it; rollback', async ({
  browser,
}) => {
  test.setTimeout(600_000);
  addAccount(MAKER, ['maker', 'checker']);
  addAccount(CHECKER, ['checker']);
  addAccount(ADMIN, ['admin']);

  const maker = await newDesk(browser, MAKER);
  await expectAccessible(maker.page);
  await docsScreenshot(maker.page, 'ops-inbox.png', { fullPage: true });

  // 1. The file with 3 broken rows: the report shows each problem with its row, column and value.
  await upload(maker.page, files.broken);
  const report = maker.page.getByRole('table', { name: 'Problems' });
  await expect(report).toBeVisible();
  for (const [line, value] of [
    [12, 'ABCDEFGHI'],
    [22, `999${corrected[20].routing_number.slice(3)}`],
  ] as const) {
    await expect(report.getByRole('row').filter({ hasText: value }).first()).toContainText(String(line));
  }
  await expect(
    report
      .getByRole('row')
      .filter({ has: maker.page.getByRole('cell', { name: '32', exact: true }) })
      .first(),
  ).toContainText('bank_code');
  await expect(maker.page.getByTestId('report-counts')).toContainText(
    `${corrected.length.toLocaleString('en')} rows read`,
  );
  await expect(maker.page.getByTestId('report-counts')).toContainText('3 with problems');
  await expect(maker.page.getByRole('link', { name: 'Download the problems (CSV)' })).toBeVisible();
  await expect(maker.page.getByText('This change has problems: it cannot be published.')).toBeVisible();
  await expectAccessible(maker.page);
  await docsScreenshot(maker.page, 'ops-report.png', { fullPage: true });
  const problemsCsv = await maker.page.request.get(
    (await maker.page.getByRole('link', { name: 'Download the problems (CSV)' }).getAttribute('href'))!,
  );
  expect(problemsCsv.status()).toBe(200);
  expect(await problemsCsv.text()).toContain('ABCDEFGHI');
  // The maker discards the broken change.
  await maker.page.getByRole('button', { name: 'Discard this change' }).click();
  await maker.page.getByRole('button', { name: 'Yes, discard' }).click();
  await expect(maker.page.getByTestId('change-status')).toHaveText('Discarded');

  // 2. The corrected file: 1 added, 2 changed, field by field.
  await upload(maker.page, files.corrected);
  const changeUrl = maker.page.url();
  const changeId = changeUrl.split('/').pop()!;
  await expect(maker.page.getByTestId('diff-counts')).toContainText('1 added, 2 changed, 0 removed');
  await expect(maker.page.getByTestId('diff-added')).toHaveCount(1);
  await expect(maker.page.getByTestId('diff-added')).toContainText('DESK NEW PORT');
  await expect(maker.page.getByTestId('diff-changed')).toHaveCount(2);
  const moved = maker.page.getByTestId('diff-changed').filter({ hasText: CHANGED[0].routing_number });
  await expect(moved.getByTestId('field-change')).toHaveText(
    `before: ${CHANGED[0].address_line1} → after: ${CHANGED[0].address_line1} (MOVED)`,
  );
  const city = maker.page.getByTestId('diff-changed').filter({ hasText: CHANGED[1].routing_number });
  await expect(city.getByTestId('field-change')).toContainText('→ after: Desk City');
  // Filters: only the changed records.
  await maker.page.getByRole('combobox', { name: 'Difference' }).click();
  await maker.page.getByRole('option', { name: 'Changed' }).click();
  await expect(maker.page.getByTestId('diff-added')).toHaveCount(0);
  await expect(maker.page.getByTestId('diff-changed')).toHaveCount(2);
  // The filter's list has closed (a list fading out reads as low contrast to axe).
  await expect(maker.page.locator('li[data-value]')).toHaveCount(0);
  await expectAccessible(maker.page);
  await docsScreenshot(maker.page, 'ops-diff.png', { fullPage: true });

  // 3. The maker's own approve: the screen says another checker must approve it, and the API refuses (403).
  await expect(maker.page.getByTestId('own-change')).toContainText('another checker must approve it');
  await expect(maker.page.getByRole('button', { name: 'Approve and publish' })).toHaveCount(0);
  const session = await (await maker.page.request.get('/v1/ops/session')).json();
  const ownApprove = await maker.page.request.post(`/v1/ops/changes/${changeId}/approve`, {
    headers: { 'x-csrf-token': session.csrfToken },
    data: { comment: 'my own', confirmRemovals: false },
  });
  expect(ownApprove.status()).toBe(403);

  // 4. The checker, in another browser, finds it in the inbox and approves it.
  const checker = await newDesk(browser, CHECKER);
  const inboxRow = checker.page
    .getByRole('table', { name: 'Changes' })
    .getByRole('row')
    .filter({ hasText: 'bd-branches.csv' });
  await expect(inboxRow).toContainText('Waiting for approval');
  await inboxRow.getByRole('link', { name: 'bd-branches.csv' }).click();
  await expect(checker.page).toHaveURL(changeUrl.replace(/^https?:\/\/[^/]+/, new URL(checker.page.url()).origin));
  await typeLikeAPerson(checker.page.getByLabel('Comment (optional)'), ['Checked the new ', 'Chattogram branch']);
  await expectAccessible(checker.page);
  await docsScreenshot(checker.page, 'ops-approve.png', { fullPage: true });
  await checker.page.getByRole('button', { name: 'Approve and publish' }).click();
  await expect(checker.page.getByTestId('change-status')).toHaveText('Published', { timeout: 120_000 });
  await expect(checker.page.getByTestId('decided')).toContainText(`Decided by ${CHECKER}`);

  // 5. A teller finds the new branch, and the changed address.
  const teller = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tellerPage = await teller.newPage();
  await signIn(tellerPage);
  await tellerLooksUp(tellerPage, NEW_ROUTING);
  await expect(tellerPage.getByTestId('code-match')).toContainText('DESK NEW PORT');
  await tellerLooksUp(tellerPage, CHANGED[0].routing_number);
  await expect(tellerPage.getByTestId('code-match')).toContainText(`${CHANGED[0].address_line1} (MOVED)`);

  // 6. Rollback: from the history, staged by the maker (who holds the checker role), approved by the checker.
  await maker.page.getByRole('tab', { name: 'History' }).click();
  const versions = maker.page.getByTestId('version-row');
  await expect(versions.first()).toContainText('bd-branches.csv');
  await expectAccessible(maker.page);
  await docsScreenshot(maker.page, 'ops-history.png', { fullPage: true });
  const previous = versions.filter({ hasNotText: 'bd-branches.csv' }).filter({ hasText: 'Bank branches' }).first();
  await previous.getByRole('button', { name: /Roll back to/ }).click();
  await expect(maker.page).toHaveURL(/\/ops\/changes\/[^/]+$/);
  await expect(maker.page.getByTestId('change-status')).toHaveText('Waiting for approval', { timeout: 120_000 });
  await expect(maker.page.getByTestId('diff-counts')).toContainText('0 added, 2 changed, 1 removed');
  const rollbackUrl = new URL(maker.page.url()).pathname;
  await checker.page.goto(rollbackUrl);
  await checker.page.getByRole('button', { name: 'Approve and publish' }).click();
  await expect(checker.page.getByTestId('change-status')).toHaveText('Published', { timeout: 120_000 });
  await tellerLooksUp(tellerPage, NEW_ROUTING);
  await expect(tellerPage.getByTestId('code-unknown')).toBeVisible();
  await tellerLooksUp(tellerPage, CHANGED[0].routing_number);
  await expect(tellerPage.getByTestId('code-match')).toContainText(CHANGED[0].address_line1);
  await expect(tellerPage.getByTestId('code-match')).not.toContainText('(MOVED)');

  // 7. The other screens: my changes, quality, audit (the approvals recorded), accounts (admin).
  await maker.page.getByRole('tab', { name: 'My changes' }).click();
  await expect(maker.page.getByRole('table', { name: 'Changes' })).toContainText('bd-branches-broken.csv');
  await expectAccessible(maker.page);
  await docsScreenshot(maker.page, 'ops-my-changes.png', { fullPage: true });
  await checker.page.getByRole('tab', { name: 'Audit' }).click();
  await expect(checker.page.getByTestId('audit-row').filter({ hasText: 'approved' }).first()).toContainText(CHECKER);
  await typeLikeAPerson(checker.page.getByLabel('Who'), [MAKER.slice(0, 5), MAKER.slice(5)]);
  await expect(checker.page.getByTestId('audit-row').first()).toContainText(MAKER);
  await expectAccessible(checker.page);
  await docsScreenshot(checker.page, 'ops-audit.png', { fullPage: true });
  await checker.page.getByRole('tab', { name: 'Data quality' }).click();
  await expect(checker.page.getByTestId('quality-check').first()).toBeVisible();
  await expectAccessible(checker.page);
  await docsScreenshot(checker.page, 'ops-quality.png', { fullPage: true });

  const admin = await newDesk(browser, ADMIN);
  await admin.page.getByRole('tab', { name: 'Accounts' }).click();
  await expect(admin.page.getByRole('table', { name: 'Operations accounts' })).toContainText(MAKER);
  await expectAccessible(admin.page);
  await docsScreenshot(admin.page, 'ops-accounts.png', { fullPage: true });

  await Promise.all([maker.context.close(), checker.context.close(), admin.context.close(), teller.close()]);
});

test('sign-in: the field has the focus at once, keystrokes are kept, a wrong password is refused', async ({ page }) => {
  await page.goto('/ops');
  const user = page.getByLabel('User name');
  await expect(user).toBeVisible();
  // Typed the moment the field shows, without a click.
  await page.keyboard.type(CHECKER, { delay: 30 });
  await expect(user).toHaveValue(CHECKER);
  await expectAccessible(page);
  await docsScreenshot(page, 'ops-sign-in.png');
  await typeLikeAPerson(page.getByLabel('Password'), ['not the ', 'password']);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText('The user name or the password is not right');
  // No teller screen and no teller app bar in the desk.
  await expect(page.getByRole('combobox', { name: 'Receiving country' })).toHaveCount(0);
});

test('the teller app bar has no link to the desk, and a teller never loads its code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await signIn(page);
  await page.goto('/agents');
  await expect(page.getByLabel('Receiving country')).toBeVisible();
  await expect(page.locator('a[href^="/ops"]')).toHaveCount(0);
  expect(scripts.filter((url) => /ops-area/.test(url))).toEqual([]);
});

test('column mapping of a header the desk does not know', async ({ browser }) => {
  const { context, page } = await newDesk(browser, MAKER);
  await page.getByRole('tab', { name: 'Upload' }).click();
  await page.getByLabel('File (CSV or XLSX)').setInputFiles(files.mapped);
  await page.getByRole('button', { name: 'Upload and check' }).click();
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeVisible();
  for (const [heading, field] of [
    ['Country', 'country'],
    ['Bank', 'bank_code'],
    ['Bank Name', 'bank_name'],
    ['Routing No', 'routing_number'],
    ['Branch', 'branch_name'],
    ['Address', 'address_line1'],
    ['District', 'district'],
    ['Division', 'state'],
  ]) {
    const select = page.getByRole('combobox', { name: `Field of column ${heading}`, exact: true });
    if ((await select.textContent())?.trim().startsWith(field)) continue;
    await select.click();
    await page.getByRole('option', { name: new RegExp(`^${field}( \\*)?$`) }).click();
  }
  await expectAccessible(page);
  await docsScreenshot(page, 'ops-mapping.png', { fullPage: true });
  await page.getByRole('button', { name: 'Upload with this mapping' }).click();
  await expect(page).toHaveURL(/\/ops\/changes\/[^/]+$/, { timeout: 60_000 });
  await expect(page.getByTestId('change-status')).not.toHaveText('Validating', { timeout: 120_000 });
  // Read through the mapping, the five branches are the served ones (the rest of Bangladesh would go: flagged).
  await expect(page.getByTestId('diff-counts')).toContainText('5 unchanged');
  await page.getByRole('tab', { name: /^Report \(/ }).click();
  await expect(page.getByTestId('report-counts')).toContainText('5 rows read');
  await page.getByRole('button', { name: 'Discard this change' }).click();
  await page.getByRole('button', { name: 'Yes, discard' }).click();
  await expect(page.getByTestId('change-status')).toHaveText('Discarded');
  await context.close();
});

test('the desk at 360 px: inbox, upload, a change, history', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-US' });
  const page = await context.newPage();
  await deskSignIn(page, MAKER);
  const fits = async () =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await fits();
  await expectAccessible(page);
  await page.getByRole('tab', { name: 'Upload' }).click();
  await expect(page.getByRole('button', { name: 'Upload and check' })).toBeVisible();
  await fits();
  await page.getByRole('tab', { name: 'My changes' }).click();
  await page.getByRole('table', { name: 'Changes' }).getByRole('link', { name: 'bd-branches.csv' }).first().click();
  await expect(page.getByTestId('change-status')).toBeVisible();
  await expectAccessible(page);
  await docsScreenshot(page, 'ops-change-360.png', { fullPage: true });
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('version-row').first()).toBeVisible();
  await expectAccessible(page);
  await context.close();
});

test('the desk in Spanish: every screen without English text, axe clean', async ({ browser }) => {
  const es = catalogue('es').ops as Record<string, Record<string, string>>;
  const english = englishTexts(catalogue('en').ops, es);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-MX' });
  const page = await context.newPage();
  await page.goto('/ops');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await typeLikeAPerson(page.getByLabel(es.signIn.name), [MAKER.slice(0, 5), MAKER.slice(5)]);
  await typeLikeAPerson(page.getByLabel(es.signIn.password), [PASSWORD.slice(0, 10), PASSWORD.slice(10)]);
  await page.getByRole('button', { name: es.signIn.submit }).click();
  await expect(page.getByTestId('ops-user')).toContainText(MAKER);
  const noEnglish = async () => {
    const text = await page.locator('body').innerText();
    expect(english.filter((phrase) => text.includes(phrase))).toEqual([]);
  };
  for (const tab of ['inbox', 'mine', 'upload', 'history', 'quality', 'audit'] as const) {
    await page.getByRole('tab', { name: es.nav[tab] }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await noEnglish();
    await expectAccessible(page);
  }
  await page.getByRole('tab', { name: es.nav.mine }).click();
  await page.getByRole('link', { name: 'bd-branches.csv' }).first().click();
  await expect(page.getByTestId('change-status')).toBeVisible();
  await page.getByRole('tab', { name: es.change.diffTab }).click();
  await expect(page.getByTestId('diff-counts')).toBeVisible();
  await noEnglish();
  await expectAccessible(page);
  await docsScreenshot(page, 'ops-diff-es.png', { fullPage: true });
  await context.close();
});
