import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { csvRows } from '../src/testing/csv-rows';
import { expect, expectAccessible, test, typeLikeAPerson } from './fixtures';
import { addAccount } from './desk';

// Versions taken away and compared, from the desk's history screen: a checker downloads the XLSX a version was
// published from (byte for byte the upload: the SHA-256 the row shows), its release note, and compares two kept
// versions in the diff viewer, the keyboard choosing them; the same at 360 px and in Spanish.

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'versions pass phrase 2026';
const MAKER = 'versions-maker';
const CHECKER = 'versions-checker';

const bd = csvRows(readFileSync(join(import.meta.dirname, '..', 'data', 'seed', 'bank-branches', 'BD.csv')));
const COLUMNS = Object.keys(bd[0]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The two files published: an XLSX with one branch renamed, then a CSV moving another and removing a third. */
const RENAMED = bd[40];
const MOVED = bd[80];
const REMOVED = bd[120];
async function firstFile(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('branches');
  sheet.addRow(COLUMNS);
  for (const row of bd) {
    const cells = row === RENAMED ? { ...row, branch_name: `${row.branch_name} RENAMED` } : row;
    sheet.addRow(COLUMNS.map((c) => cells[c]));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
function secondFile(): Buffer {
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows = bd
    .filter((row) => row !== REMOVED)
    .map((row) =>
      row === RENAMED
        ? { ...row, branch_name: `${row.branch_name} RENAMED` }
        : row === MOVED
          ? { ...row, address_line1: `${row.address_line1} (MOVED)` }
          : row,
    );
  return Buffer.from([COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => quote(r[c])).join(','))].join('\n'));
}

/** An API session of the desk (the setup a maker and a checker did before this screen). */
async function apiSession(request: APIRequestContext, name: string) {
  const signedIn = await request.post('/v1/ops/session', { data: { name, password: PASSWORD } });
  expect(signedIn.status()).toBe(200);
  return { 'x-csrf-token': ((await signedIn.json()) as { csrfToken: string }).csrfToken };
}

/** Staged by the maker, approved by the checker: the published version's id. */
async function publish(maker: APIRequestContext, checker: APIRequestContext, name: string, bytes: Buffer) {
  const makerHeaders = await apiSession(maker, MAKER);
  const checkerHeaders = await apiSession(checker, CHECKER);
  const staged = await maker.post('/v1/ops/changes', {
    headers: makerHeaders,
    multipart: { kind: 'branches', file: { name, mimeType: 'application/octet-stream', buffer: bytes } },
  });
  expect(staged.status(), await staged.text()).toBe(202);
  const { id } = (await staged.json()) as { id: string };
  await expect
    .poll(async () => ((await (await checker.get(`/v1/ops/changes/${id}`)).json()) as { status: string }).status, {
      timeout: 120_000,
    })
    .toBe('staged');
  const approved = await checker.post(`/v1/ops/changes/${id}/approve`, {
    headers: checkerHeaders,
    data: { comment: 'checked', confirmRemovals: false },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  const versions = (await (await checker.get('/v1/ops/versions?kind=branches')).json()) as {
    data: { id: number; changeId: string | null }[];
  };
  return versions.data.find((v) => v.changeId === id)!.id;
}

/** Signs in on the desk, typed with pauses, and opens the history. */
async function openHistory(page: Page, historyTab: string, labels: { name: string; password: string; go: string }) {
  await page.goto('/ops');
  await typeLikeAPerson(page.getByLabel(labels.name), [CHECKER.slice(0, 6), CHECKER.slice(6)]);
  await typeLikeAPerson(page.getByLabel(labels.password), [PASSWORD.slice(0, 9), PASSWORD.slice(9)]);
  await page.getByRole('button', { name: labels.go }).click();
  await expect(page.getByTestId('ops-user')).toContainText(CHECKER);
  await page.getByRole('tab', { name: historyTab }).click();
}

/** Chooses a version in one of the compare fields with the keyboard: focus, open, arrow to it, Enter. */
async function chooseWithKeys(page: Page, field: string, version: number) {
  const select = page.getByRole('combobox', { name: field });
  await select.focus();
  await select.press('Enter');
  const option = page.getByRole('option', { name: new RegExp(`^${version} · `) });
  await expect(option).toBeVisible();
  for (let i = 0; i < 20 && !(await option.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(select).toContainText(`${version} · `);
}

let first: number;
let second: number;
let xlsx: Buffer;

test('a checker downloads the XLSX a version came from, byte for byte, and compares two versions', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(600_000);
  addAccount(MAKER, ['maker'], PASSWORD);
  addAccount(CHECKER, ['checker'], PASSWORD);
  const baseURL = test.info().project.use.baseURL;
  const maker = await playwright.request.newContext({ baseURL });
  const checker = await playwright.request.newContext({ baseURL });
  xlsx = await firstFile();
  first = await publish(maker, checker, 'bd-bank-release.xlsx', xlsx);
  second = await publish(maker, checker, 'bd-moves.csv', secondFile());

  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await openHistory(page, 'History', { name: 'User name', password: 'Password', go: 'Sign in' });
  const row = page.getByTestId('version-row').filter({ hasText: 'bd-bank-release.xlsx' });
  await expect(row).toContainText(`SHA-256 ${sha256(xlsx).slice(0, 16)}`);

  // The original file: the workbook as uploaded.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: 'Original file' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('bd-bank-release.xlsx');
  const downloaded = readFileSync((await download.path())!);
  expect(sha256(downloaded)).toBe(sha256(xlsx));
  // The later version's release note names the moved and the removed branch.
  const laterRow = page.getByTestId('version-row').filter({ hasText: 'bd-moves.csv' });
  const note = await page.request.get(
    (await laterRow.getByRole('link', { name: 'Release note (CSV)' }).getAttribute('href'))!,
  );
  const lines = csvRows(await note.body());
  expect(lines.find((l) => l.line === 'total')).toMatchObject({ added: '0', removed: '1', changed: '1' });
  expect(
    lines
      .filter((l) => l.line === 'record')
      .map((l) => `${l.op} ${l.code}`)
      .sort(),
  ).toEqual([`changed ${MOVED.routing_number}`, `removed ${REMOVED.routing_number}`].sort());

  // Compare the two, chosen with the keyboard: the second change's difference, field by field.
  await chooseWithKeys(page, 'From version', first);
  await chooseWithKeys(page, 'To version', second);
  await page.getByRole('button', { name: 'Compare', exact: true }).press('Enter');
  const comparison = page.getByTestId('version-comparison');
  await expect(comparison.getByRole('status').first()).toHaveText(`Version ${first} → version ${second}`);
  await expect(comparison.getByTestId('diff-counts')).toContainText('0 added, 1 changed, 1 removed');
  const moved = comparison.getByTestId('diff-changed');
  await expect(moved).toHaveCount(1);
  await expect(moved).toContainText(MOVED.routing_number);
  await expect(moved.getByTestId('field-change')).toHaveText(
    `before: ${MOVED.address_line1} → after: ${MOVED.address_line1} (MOVED)`,
  );
  await expect(comparison.getByTestId('diff-removed')).toContainText(REMOVED.routing_number);
  // Across both versions from the baseline: the rename shows too.
  const baseline = (await (await checker.get('/v1/ops/versions?kind=branches')).json()) as {
    data: { id: number; changeId: string | null }[];
  };
  await chooseWithKeys(page, 'From version', baseline.data.find((v) => v.changeId === null)!.id);
  await chooseWithKeys(page, 'To version', second);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  // Bangladesh's counts (other specs may have published changes of other countries since the baseline).
  await expect(
    comparison.getByRole('table', { name: 'Counts per country' }).getByRole('row', { name: /^BD / }),
  ).toHaveAccessibleName('BD 0 2 1');
  await expect(comparison.getByTestId('diff-changed').filter({ hasText: RENAMED.routing_number })).toContainText(
    `${RENAMED.branch_name} RENAMED`,
  );
  await expect(page.locator('li[data-value]')).toHaveCount(0);
  await expectAccessible(page);
  await Promise.all([context.close(), maker.dispose(), checker.dispose()]);
});

test('at 360 px and in Spanish: the downloads and the comparison', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'es-MX' });
  const page = await context.newPage();
  await openHistory(page, 'Historial', { name: 'Nombre de usuario', password: 'Contraseña', go: 'Acceder' });
  const row = page.getByTestId('version-row').filter({ hasText: 'bd-bank-release.xlsx' });
  await expect(row.getByRole('link', { name: 'Archivo original' })).toBeVisible();

  await expect(row.getByRole('link', { name: 'Datos (CSV)' })).toBeVisible();
  await chooseWithKeys(page, 'Desde la versión', first);
  await chooseWithKeys(page, 'Hasta la versión', second);
  await page.getByRole('button', { name: 'Comparar', exact: true }).click();
  await expect(page.getByTestId('version-comparison').getByRole('status').first()).toHaveText(
    `Versión ${first} → versión ${second}`,
  );
  await expect(page.getByTestId('diff-changed')).toHaveCount(1);
  // The comparison's form and records fit the screen (the versions table scrolls in its own box).
  for (const part of [page.getByRole('button', { name: 'Comparar', exact: true }), page.getByTestId('diff-changed')]) {
    const box = (await part.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(360);
  }
  await expectAccessible(page);
  await context.close();
});
