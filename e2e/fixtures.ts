import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Locator, type Page, type PageScreenshotOptions } from '@playwright/test';

export const CORRESPONDENT_ID = 'AB12CD';

/**
 * Where the manuals' pictures and reports go: `docs/` when `npm run docs:screenshots` / `docs:lighthouse` asks for
 * them (DOCS_OUT=docs), else the test's own output folder — a test run never writes a tracked file.
 */
export function docsOutputDir(subfolder = '') {
  return process.env.DOCS_OUT ? join(process.env.DOCS_OUT, subfolder) : base.info().outputPath(subfolder);
}

/**
 * A screenshot the manuals show, taken when `npm run docs:screenshots` makes them (docs/screenshots/<name>). A test
 * run takes none: a picture checks nothing, and a failing test keeps its trace (playwright.config.ts).
 */
export async function docsScreenshot(page: Page, name: string, options: PageScreenshotOptions = {}) {
  if (process.env.DOCS_OUT) await page.screenshot({ ...options, path: join(docsOutputDir('screenshots'), name) });
}

/** Signs the teller in the way the portal remembers it: the correspondent id in localStorage. */
export async function signIn(page: Page, id = CORRESPONDENT_ID) {
  await page.addInitScript((value) => localStorage.setItem('rpl.correspondentId', value), id);
}

/**
 * axe-core on the page as it stands once its transitions have ended: no serious or critical WCAG 2 A/AA violation.
 * A menu or tooltip still fading in is half transparent, and axe would measure its contrast mid-fade (it did:
 * three flaky runs in CI). Endless animations (a progress spinner) are not waited for.
 */
export async function expectAccessible(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    blocking.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/**
 * axe's `region` rule (all content inside a landmark: a moderate rule, which expectAccessible lets pass) and every
 * serious or critical violation, as lines naming the rule and the elements.
 */
export async function regionAndSeriousViolations(page: Page): Promise<string[]> {
  // `region` is a best-practice rule: one run with those rules too, kept only for `region` (and what is serious).
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((v) => v.id === 'region' || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** No content outside a landmark (axe `region`) and no serious or critical violation. */
export async function expectNoRegionViolations(page: Page) {
  expect(await regionAndSeriousViolations(page)).toEqual([]);
}

/** Chooses a receiving country in the app bar by typing part of its name or code. */
export async function chooseCountry(page: Page, typed: string, name: RegExp) {
  const country = page.getByRole('combobox', { name: 'Receiving country' });
  await clearLikeAPerson(country);
  await typeLikeAPerson(country, [typed]);
  await page.getByRole('option', { name }).click();
  // A country with several delivery modes asks for one; these journeys take its first, as the portal
  // once did by itself. A journey about the mode chooses it afterwards (chooseDeliveryMode).
  const ask = page.getByTestId('choose-mode');
  await page.waitForTimeout(250);
  if (await ask.isVisible()) await ask.getByRole('button').first().click();
}

export async function chooseDeliveryMode(page: Page, name: RegExp) {
  await page.getByRole('combobox', { name: 'Delivery mode' }).click();
  await page.getByRole('option', { name }).click();
}

export const test = base;
export { expect };

const between = (low: number, high: number) => low + Math.round(Math.random() * (high - low));

/**
 * Types as a teller does: each part key by key (60–120 ms apart), with a pause of 150–450 ms between parts
 * (or the given pause), never `fill()`.
 */
export async function typeLikeAPerson(locator: Locator, parts: string[], pauses: number[] = []) {
  await locator.click();
  for (const [i, part] of parts.entries()) {
    if (i > 0) await locator.page().waitForTimeout(pauses[i - 1] ?? between(150, 450));
    await locator.pressSequentially(part, { delay: between(60, 120) });
  }
}

/** Empties a field the way a teller does: select all, then Backspace. */
export async function clearLikeAPerson(locator: Locator) {
  await locator.click();
  await locator.press('ControlOrMeta+A');
  await locator.press('Backspace');
}

/** Pastes text the way a teller does (the clipboard, then Ctrl+V) into the focused field. */
export async function paste(locator: Locator, text: string) {
  await locator.click();
  await locator.page().evaluate((value) => navigator.clipboard.writeText(value), text);
  await locator.press('ControlOrMeta+V');
}
