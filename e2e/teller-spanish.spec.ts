import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { TcpProxy } from '../src/testing/tcp-proxy';
import { expect as baseExpect, expectAccessible, signIn, test, typeLikeAPerson } from './fixtures';

// Two cores shared by several engineers: an answer may take seconds.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

// Every screen and every error state walked in Spanish; the walk fails on any text of the
// English catalogue on screen (a text of en.json that es.json says differently), in the page's text, its
// accessible names, placeholders and titles.

const PORT = Number(process.env.E2E_PORT ?? 8310);
const PROXY_PORT = Number(process.env.E2E_PROXY_PORT ?? 8452);

type Messages = { [key: string]: string | Messages };
const read = (code: string): Messages =>
  JSON.parse(readFileSync(join(process.cwd(), 'src', 'portal', 'locales', `${code}.json`), 'utf8')) as Messages;
const flatten = (messages: Messages, prefix = ''): [string, string][] =>
  Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : flatten(value, `${prefix}${key}.`),
  );
const es = Object.fromEntries(flatten(read('es')));
const m = read('es') as Record<string, any>;
/** English texts that Spanish says otherwise, as patterns of a whole text ({{x}} stands for anything). */
const englishOnly = flatten(read('en'))
  .filter(([key, text]) => es[key] !== text && /[a-z]{3,}/i.test(text.replace(/\{\{[^}]+\}\}/g, '')))
  .map(([key, text]) => ({
    key,
    text,
    pattern: `^${text
      .trim()
      .split(/\{\{[^}]+\}\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+?')}$`,
  }));

/** Every English text of the catalogue on the page as it stands (visible text nodes and accessible names). */
async function englishOnScreen(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!text || !parent || parent.closest('script, style')) continue;
      if (!parent.checkVisibility({ visibilityProperty: true })) continue;
      found.push(text);
    }
    for (const element of document.querySelectorAll('[aria-label], [placeholder], [title]'))
      for (const name of ['aria-label', 'placeholder', 'title']) {
        const value = element.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    found.push(document.title);
    return found;
  });
  const hits = new Set<string>();
  for (const text of texts)
    for (const english of englishOnly)
      if (new RegExp(english.pattern).test(text)) hits.add(`${english.key}: "${text}"`);
  return [...hits];
}

async function expectSpanish(page: Page, where: string) {
  expect(await englishOnScreen(page), where).toEqual([]);
}

test.describe('the teller in Spanish (browser es-MX)', () => {
  test.use({ locale: 'es-MX', viewport: { width: 1280, height: 900 } });

  test('the detector finds English (the check can fail)', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: m.correspondent.signInTitle })).toBeVisible();
    await page.evaluate(() => {
      const probe = document.createElement('p');
      probe.textContent = 'Service unreachable';
      document.body.append(probe);
    });
    expect(await englishOnScreen(page)).toEqual(['teller.problems.unreachable.title: "Service unreachable"']);
  });

  test('sign-in, its refusal, every screen and every error state', async ({ page }) => {
    // Sign-in, and an id the service does not serve (403).
    await page.goto('/');
    const id = page.getByLabel(m.correspondent.field);
    await expect(id).toBeVisible();
    await expectSpanish(page, 'sign-in');
    await typeLikeAPerson(id, ['ZZ9', '9ZZ'], [300]);
    await page.keyboard.press('Enter');
    await expect(page.getByText(/ZZ99ZZ/)).toBeVisible();
    await expectSpanish(page, 'sign-in refused');

    await signIn(page);
    // Agents: a country with several modes asks; names of countries and modes in Spanish; the footer too.
    await page.goto('/agents');
    const country = page.getByRole('combobox', { name: m.selector.country });
    await typeLikeAPerson(country, ['Méx', 'ico'], [300]);
    await page.getByRole('option', { name: /México \(MX\)/ }).click();
    await expect(page.getByTestId('choose-mode')).toBeVisible();
    await expect(page.getByRole('list', { name: m.dataStatus.label })).toBeVisible();
    await expectSpanish(page, 'choose a mode');
    await page
      .getByTestId('choose-mode')
      .getByRole('button', { name: /^01 · Retiro en efectivo/ })
      .click();
    const search = page.getByLabel(m.agents.search);
    await typeLikeAPerson(search, ['Tequesq', 'uitlan'], [450]);
    await expect(page.getByTestId('did-you-mean')).toBeVisible();
    await expectSpanish(page, 'agents: empty answer with a suggestion');
    await page.getByTestId('did-you-mean').getByRole('button').first().click();
    await expect(page.getByRole('table', { name: m.agents.list }).locator('tbody tr').first()).toBeVisible();
    await expectSpanish(page, 'agents: answer');
    await page.getByRole('combobox', { name: m.selector.deliveryMode }).click();
    await expect(page.getByRole('option', { name: /^02 · Entrega a domicilio/ })).toBeVisible();
    await expectSpanish(page, 'delivery modes');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: m.teller.recentLabel }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectSpanish(page, 'recent searches');
    await page.keyboard.press('Escape');

    // Payout networks.
    await page.getByRole('tab', { name: m.app.tabs.payoutNetworks }).click();
    await expect(page.getByRole('heading', { level: 1, name: m.payoutNetworks.title })).toBeVisible();
    await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible();
    await expectSpanish(page, 'payout networks');

    // Branches: India, browse lists, a bank name.
    await page.goto('/branches?receivingCountry=IN&deliveryMode=04');
    const bankName = page.getByLabel(m.branches.bankName);
    await typeLikeAPerson(bankName, ['Allah', 'abad'], [350]);
    await expect(page.getByRole('table', { name: m.branches.list }).locator('tbody tr').first()).toContainText(
      /allahabad/i,
    );
    await expectSpanish(page, 'branches: India');
    // Bangladesh (districts), and a code no branch has.
    await page.goto('/branches?receivingCountry=BD&deliveryMode=04&bankCode=999999999');
    await expect(page.getByTestId('results-empty')).toBeVisible();
    await expectSpanish(page, 'branches: Bangladesh, no branch');

    // Find by code.
    await page.goto('/code?code=SBIN0000300&receivingCountry=IN&deliveryMode=04');
    await expect(page.getByRole('heading', { level: 1, name: m.code.title })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectSpanish(page, 'find by code');

    // A request the API refuses (400: a hand-edited parameter).
    await page.goto('/agents?receivingCountry=MX&deliveryMode=01&pagesize=10');
    await expect(page.getByTestId('problem')).toContainText(m.teller.problems.invalidRequest.title);
    await expectSpanish(page, 'error: 400');
    await expectAccessible(page);
  });

  test('the service unreachable, in Spanish', async ({ page }) => {
    const proxy = new TcpProxy('127.0.0.1', PORT);
    proxy.port = PROXY_PORT;
    await proxy.start();
    try {
      await signIn(page);
      await page.goto(`http://127.0.0.1:${PROXY_PORT}/branches?receivingCountry=IN&deliveryMode=04`);
      await expect(page.getByRole('table', { name: m.branches.list }).locator('tbody tr').first()).toBeVisible();
      await proxy.cut();
      await typeLikeAPerson(page.getByLabel(m.branches.bankName), ['Sta', 'te'], [300]);
      await expect(page.getByTestId('problem').first()).toContainText(m.teller.problems.unreachable.title, {
        timeout: 15_000,
      });
      await expectSpanish(page, 'error: unreachable');
    } finally {
      await proxy.close();
    }
  });
});
