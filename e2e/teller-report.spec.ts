import type { Page } from '@playwright/test';
import { addAccount, deskSignIn } from './desk';
import { CORRESPONDENT_ID, expect, expectAccessible, signIn, test, typeLikeAPerson } from './fixtures';

// "Tellers tell operations": a teller on a phone (360 px) opens a branch, reports a wrong routing
// number and is given the report's reference; an analyst signs in to the desk, finds that report in the queue
// (/ops/reports) with the teller's note and correspondent id, sees the link to the record's page and closes the
// report with the reference of the change that fixed it; the closed report says who closed it and with what.

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'a teller told us this';
const ANALYST = 'report-analyst';
const CODE = 'BARB0COLIND';
const NOTE = ['The customer’s cheque book ', 'says BARB0INDORE, ', 'not BARB0COLIND.'];
const FIXED_BY = ['change 4f1c', '-ifsc-fix'];

const addAnalyst = () => addAccount(ANALYST, ['maker'], PASSWORD);
const analystSignsIn = (page: Page) => deskSignIn(page, ANALYST, { password: PASSWORD, path: '/ops/reports' });

let reference = '';

test('a teller reports a wrong routing number from the branch view and is given a reference', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page);
  await page.goto('/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=FDRLIN');
  await typeLikeAPerson(page.getByLabel('Bank code / routing number', { exact: true }), ['BARB0', 'COLIND'], [400]);
  await page.getByTestId('branch-detail-link').click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByTestId('branch-detail-code')).toContainText(CODE);
  const branchName = (await drawer.getByTestId('branch-detail-branchName').innerText()).trim();

  await drawer.getByRole('button', { name: `Report a problem with ${branchName}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Report a problem with this record' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`${branchName} (${CODE})`);
  // The reason, chosen with the keyboard: from "wrong address" back up to "wrong routing number".
  await dialog.getByRole('radio', { name: 'Wrong address' }).check();
  await page.keyboard.press('ArrowUp');
  await expect(dialog.getByRole('radio', { name: 'Wrong routing number or code' })).toBeChecked();

  // Sending without a note is refused on the screen, before any request.
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText('Say what is wrong.')).toBeVisible();
  const note = dialog.getByRole('textbox', { name: 'Note for operations' });
  await typeLikeAPerson(note, NOTE);
  const typed = NOTE.join('');
  await expect(note).toHaveValue(typed);
  await expect(dialog).toContainText(`${typed.length} of 500 characters`);
  await expectAccessible(page);

  const sent = page.waitForResponse((r) => r.url().endsWith('/v1/reports') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  const answer = await sent;
  expect(answer.status()).toBe(201);
  expect(answer.request().headers()['x-fapi-financial-id']).toBe(CORRESPONDENT_ID);
  const confirmation = dialog.getByTestId('report-confirmation');
  await expect(confirmation).toContainText('Report sent to operations. Your reference: R-');
  reference = /Your reference: (R-[0-9A-Z]{8})/.exec(await confirmation.innerText())![1];
  // The reference shown is the one the service stored.
  expect(((await answer.json()) as { id: string }).id).toBe(reference);
  await expect(confirmation).toBeFocused();
  await expectAccessible(page);
  // The dialog fits the phone's width: nothing to scroll sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('an analyst finds the report in the desk queue and closes it with the change that fixed it', async ({
  browser,
}) => {
  expect(reference).toMatch(/^R-/);
  addAnalyst();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await analystSignsIn(page);
  await expect(page.getByRole('tab', { name: 'Reports' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: "Tellers' reports" })).toBeVisible();

  const row = page.locator(`[data-testid="report-row"][data-report-id="${reference}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText(`Bank branches IN ${CODE}`);
  await expect(row).toContainText('Wrong routing number or code');
  await expect(row).toContainText(NOTE.join(''));
  await expect(row).toContainText(CORRESPONDENT_ID);
  const record = row.getByRole('link', { name: `Open the record IN~${CODE}` });
  await expect(record).toHaveAttribute('href', `/ops/records/branches/IN~${CODE}`);
  await expectAccessible(page);

  await row.getByRole('button', { name: `Close report ${reference}` }).click();
  const close = page.getByRole('dialog', { name: `Close report ${reference}` });
  const fixedBy = close.getByRole('textbox', { name: 'Fixed by (change id or version)' });
  await expect(fixedBy).toBeFocused();
  await typeLikeAPerson(fixedBy, FIXED_BY);
  await expect(fixedBy).toHaveValue(FIXED_BY.join(''));
  await typeLikeAPerson(close.getByRole('textbox', { name: 'Note (optional)' }), ['IFSC corrected ', 'by the bank']);
  await close.getByRole('button', { name: 'Close report' }).click();
  await expect(close).toBeHidden();
  await expect(row).toBeHidden();

  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Closed' }).click();
  const closed = page.locator(`[data-testid="report-row"][data-report-id="${reference}"]`);
  await expect(closed.getByTestId('report-closed')).toContainText(`Closed by ${ANALYST}`);
  await expect(closed.getByTestId('report-closed')).toContainText(FIXED_BY.join(''));

  // On a phone the queue keeps to the screen's width (the table scrolls inside its own box).
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(closed).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The audit trail names the close.
  await page.getByRole('tab', { name: 'Audit' }).click();
  const audit = page.getByTestId('audit-row').filter({ hasText: reference }).first();
  await expect(audit).toContainText('closed a teller report');
  await expect(audit).toContainText(ANALYST);
  // The row links to the record the report was about.
  await expect(audit.getByRole('link', { name: `IN~${CODE}` })).toHaveAttribute(
    'href',
    `/ops/records/branches/${encodeURIComponent(`IN~${CODE}`)}`,
  );
  await context.close();
});

test('en español, from the agent list on a phone, with the keyboard: a closed agent is reported', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'es-MX' });
  const page = await context.newPage();
  await signIn(page);
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&search=OXXO&pageSize=10');
  const report = page.getByRole('button', { name: /^Informar un problema con / }).first();
  await expect(report).toBeVisible();
  const agentName = (await report.getAttribute('aria-label'))!.replace('Informar un problema con ', '');
  await report.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Informar un problema con este registro' });
  await expect(dialog).toContainText(agentName);
  // The reasons with the arrow keys, from the first (checked) down to "closed".
  await dialog.getByRole('radio', { name: 'Número de ruta o código incorrecto' }).focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await expect(dialog.getByRole('radio', { name: 'Cerrado: ya no paga' })).toBeChecked();
  await page.keyboard.press('Tab');
  const note = dialog.getByRole('textbox', { name: 'Nota para operaciones' });
  await expect(note).toBeFocused();
  await page.keyboard.type('Cerró en ', { delay: 70 });
  await page.waitForTimeout(300);
  await page.keyboard.type('marzo; <b>sin</b> aviso.', { delay: 80 });
  await expect(dialog).toContainText('33 de 500 caracteres');
  await expectAccessible(page);
  const sent = page.waitForResponse((r) => r.url().endsWith('/v1/reports') && r.request().method() === 'POST');
  // Tab past Cancel to Send, then Enter.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Enviar informe' })).toBeFocused();
  await page.keyboard.press('Enter');
  const answer = (await (await sent).json()) as { id: string; kind: string; reason: string; note: string };
  expect(answer).toMatchObject({ kind: 'agents', reason: 'closed', note: 'Cerró en marzo; <b>sin</b> aviso.' });
  await expect(dialog.getByTestId('report-confirmation')).toContainText(
    `Informe enviado a operaciones. Su referencia: ${answer.id}`,
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await context.close();
});
