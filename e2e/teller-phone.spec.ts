import type { Locator, Page } from '@playwright/test';
import { expect as baseExpect, regionAndSeriousViolations, signIn, test, typeLikeAPerson } from './fixtures';

// The teller's screens on a 390 × 844 phone in Spanish, typed with a teller's rhythm: the first answer in view
// after a search, every target a finger can hit (44 × 44 px), no label cut or spilling out of its box, and every
// field inside a landmark.

// Two shared cores: an answer may take seconds.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 600_000 });

const PHONE = { width: 390, height: 844 };
test.use({ locale: 'es-MX', viewport: PHONE });
test.beforeEach(async ({ page }) => signIn(page));

/** The result rows, whichever form the screen gives them (table rows on a desktop, cards on a phone). */
const results = (page: Page, name: string) =>
  page.getByRole('table', { name }).locator('tbody tr').or(page.getByRole('list', { name }).getByRole('listitem'));

const country = (page: Page) => page.getByRole('combobox', { name: 'País de destino' });

/** Bangladesh, account transfer (04), chosen in the app bar as a teller does: typed, then tapped. */
async function chooseBangladesh04(page: Page) {
  await typeLikeAPerson(country(page), ['Bang', 'la']);
  await page.getByRole('option', { name: /Bangladés \(BD\)/ }).click();
  await page.getByTestId('choose-mode').getByRole('button', { name: /^04/ }).click();
  await expect(page).toHaveURL(/receivingCountry=BD&deliveryMode=04/);
}

/** Waits for transitions to end (a menu fading in is measured mid-fade otherwise); endless ones (spinners) aside. */
async function settle(page: Page) {
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
}

/** The branch finder after a district filter and a search: Sonali Bank in Dhaka district, Enter to search. */
async function searchBranchesInDhaka(page: Page) {
  await page.getByRole('tab', { name: 'Sucursales bancarias' }).click();
  await expect(page).toHaveURL(/\/branches\?/);
  const more = page.getByRole('button', { name: /filtros/i, expanded: false });
  if (await more.isVisible()) await more.click();
  await typeLikeAPerson(page.getByLabel('Nombre del banco', { exact: true }), ['SONA', 'LI']);
  const district = page.getByLabel('Distrito', { exact: true });
  await typeLikeAPerson(district, ['Dha', 'ka']);
  await district.press('Enter');
  await expect(page).toHaveURL(/bankName=SONALI&district=Dhaka|district=Dhaka.*bankName=SONALI/);
  await expect(page.getByTestId('result-total')).toContainText(/sucursal/);
}

/**
 * Visible interactive targets smaller than 44 × 44 px. A text field's target is its whole outlined box (a tap
 * anywhere in it focuses the input), a checkbox's its ripple area; everything else is measured as it is.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = [
      'button',
      'a[href]',
      'input:not([type=hidden])',
      'select',
      'textarea',
      '[role=button]',
      '[role=link]',
      '[role=tab]',
      '[role=option]',
      '[role=checkbox]',
      '[role=combobox]',
      '[role=menuitem]',
    ].join(',');
    const found: string[] = [];
    const seen = new Set<Element>();
    for (const element of document.querySelectorAll(selector)) {
      const target =
        element.closest('.MuiInputBase-root') ??
        (element.matches('input[type=checkbox], input[type=radio]') ? element.parentElement : null) ??
        element;
      if (seen.has(target)) continue;
      seen.add(target);
      if (!target.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      const box = target.getBoundingClientRect();
      // Off-screen on purpose (the skip link until it is focused) or not drawn.
      if (box.width === 0 || box.height === 0 || box.right <= 0 || box.left >= window.innerWidth) continue;
      if (Math.round(box.width) >= 44 && Math.round(box.height) >= 44) continue;
      const name =
        element.getAttribute('aria-label') ??
        element
          .getAttribute('aria-labelledby')
          ?.split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' ') ??
        (element as HTMLInputElement).labels?.[0]?.textContent ??
        element.textContent?.trim().slice(0, 40);
      found.push(
        `${element.tagName.toLowerCase()}${element.getAttribute('role') ? `[role=${element.getAttribute('role')}]` : ''} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`,
      );
    }
    return found;
  });
}

/** Buttons, labels, tabs and select displays whose text is wider than their box (cut by an ellipsis or spilling). */
async function overflowingTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'button, [role=button], [role=tab], label, legend, .MuiSelect-select, .MuiChip-label, .MuiAlert-message';
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= 0 || box.left >= window.innerWidth) continue;
      if (element.scrollWidth > element.clientWidth + 1)
        found.push(
          `${element.tagName.toLowerCase()} "${element.textContent?.trim().slice(0, 50)}" text ${element.scrollWidth} px in ${element.clientWidth} px`,
        );
    }
    return found;
  });
}

/** The same finding on every row of a list, once, with how many rows have it. */
function grouped(lines: string[]): string[] {
  const counts = new Map<string, { line: string; count: number }>();
  for (const line of lines) {
    const key = line.replace(/"[^"]*"/, (name) => name.replace(/\d+/g, '#').split(' ').slice(0, 2).join(' '));
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { line, count: 1 });
  }
  return [...counts.values()].map(({ line, count }) => (count > 1 ? `${line} (and ${count - 1} more like it)` : line));
}

/** Each teller screen with an answer on it, in the order a teller meets them, and what `check` finds on each. */
async function walkTellerScreens(page: Page, check: (page: Page) => Promise<string[]>): Promise<string[]> {
  const found: string[] = [];
  const at = async (screen: string) => {
    await settle(page);
    found.push(...(await check(page)).map((problem) => `${screen}: ${problem}`));
  };

  await page.goto('/');
  await expect(country(page)).toBeVisible();
  await chooseBangladesh04(page);
  await typeLikeAPerson(page.getByLabel('Buscar casa matriz o nombre del agente'), ['SONALI BANK, AGRA', 'BAD']);
  await expect(results(page, 'Agentes').first()).toContainText('200150163');
  await at('agent search');

  await page.getByRole('tab', { name: 'Redes de pago' }).click();
  await expect(page.getByTestId('result-total')).toBeVisible();
  await at('payout networks');

  await searchBranchesInDhaka(page);
  await expect(results(page, 'Sucursales bancarias').first()).toContainText('SONALI BANK');
  await at('branch finder (answer)');
  // The filters opened again, as the teller does to change one.
  const summary = page.getByRole('button', { name: /filtros/i, expanded: false });
  if (await summary.isVisible()) await summary.click();
  await at('branch finder (filters open)');

  const codeBox = page.getByRole('textbox', { name: 'Buscar por código' });
  await typeLikeAPerson(codeBox, ['2001', '50163']);
  await codeBox.press('Enter');
  await expect(page).toHaveURL(/\/code\?/);
  await expect(page.getByRole('heading', { level: 1, name: 'Buscar por código' })).toBeVisible();
  await expect(page.getByText('200150163').first()).toBeVisible();
  await at('find by code');

  await page.goto('/ops');
  await expect(page.getByRole('heading', { name: 'Acceso a la mesa de operaciones' })).toBeVisible();
  await typeLikeAPerson(page.getByLabel('Nombre de usuario'), ['ana']);
  await at('operations desk sign-in');
  return grouped(found);
}

const firstAnswer = (page: Page): Locator => results(page, 'Sucursales bancarias').first();

test('after a district filter and a search, the first branch is on screen without scrolling', async ({ page }) => {
  await page.goto('/');
  await expect(country(page)).toBeVisible();
  await chooseBangladesh04(page);
  await searchBranchesInDhaka(page);
  const first = firstAnswer(page);
  await expect(first).toContainText('SONALI BANK');
  await expect(first).toContainText('Dhaka');
  await settle(page);
  const box = (await first.boundingBox())!;
  const where = `the first answer at ${Math.round(box.y)}–${Math.round(box.y + box.height)} px of a ${PHONE.height} px screen`;
  expect(await page.evaluate(() => window.scrollY), `${where}: the page was scrolled`).toBe(0);
  expect(box.y, where).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, where).toBeLessThanOrEqual(PHONE.height);
  // The folded filters still say what was searched, and open again in one tap.
  const summary = page.getByRole('button', { name: /filtros/i, expanded: false });
  await expect(summary).toContainText('SONALI');
  await expect(summary).toContainText('Dhaka');
  await summary.click();
  await expect(page.getByLabel('Distrito', { exact: true })).toHaveValue('Dhaka');
  await expect(page.getByLabel('Nombre del banco', { exact: true })).toHaveValue('SONALI');
});

test('every interactive target on every teller screen is at least 44 × 44 px', async ({ page }) => {
  const offenders = await walkTellerScreens(page, smallTargets);
  expect(offenders, `targets under 44 × 44 px:\n${offenders.join('\n')}`).toEqual([]);
});

test('no button, label or select shows its text cut or spilling out of its box', async ({ page }) => {
  const offenders = await walkTellerScreens(page, overflowingTexts);
  expect(offenders, `texts wider than their box:\n${offenders.join('\n')}`).toEqual([]);
});

test('axe: every field inside a landmark (region) and nothing serious, on every teller screen', async ({ page }) => {
  const violations = await walkTellerScreens(page, regionAndSeriousViolations);
  expect(violations, violations.join('\n')).toEqual([]);
});

test('the customer slip on a phone: its own link, every target 44 px, axe region and serious, on screen and in print', async ({
  page,
}) => {
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=SONLBD');
  const more = page.getByRole('button', { name: /filtros/i, expanded: false });
  if (await more.isVisible()) await more.click();
  const code = page.getByLabel('Código de banco / número de ruta', { exact: true });
  await typeLikeAPerson(code, ['0101', '50166'], [400]);
  await code.press('Enter');
  await expect(results(page, 'Sucursales bancarias')).toHaveCount(1);
  await page.getByTestId('branch-detail-link').click();
  await page.getByRole('button', { name: /^Comprobante para el cliente/ }).click();
  const slip = page.getByRole('dialog').filter({ has: page.getByTestId('slip-code') });
  await expect(slip.getByTestId('slip-code')).toHaveText('010150166');
  // The slip has a link of its own: reloaded, the same slip opens over the same branch.
  await expect(page).toHaveURL(/[?&]slip=1/);
  await page.reload();
  await expect(slip.getByTestId('slip-code')).toHaveText('010150166');
  await settle(page);
  const small = await smallTargets(page);
  expect(small, `targets under 44 × 44 px:\n${small.join('\n')}`).toEqual([]);
  expect(await regionAndSeriousViolations(page)).toEqual([]);
  await page.emulateMedia({ media: 'print' });
  expect(await regionAndSeriousViolations(page)).toEqual([]);
  await page.emulateMedia({ media: 'screen' });
  // Closed, the link no longer opens it.
  await page.keyboard.press('Escape');
  await expect(slip).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]slip=/);
});
