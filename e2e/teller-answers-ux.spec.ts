import type { Page } from '@playwright/test';
import { TcpProxy } from '../src/testing/tcp-proxy';
import {
  clearLikeAPerson,
  docsScreenshot,
  expect as baseExpect,
  expectAccessible,
  signIn,
  test,
  typeLikeAPerson,
} from './fixtures';

// Two cores shared by several engineers: an answer may take seconds (the outage test's 5 s is its own).
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

// The teller's answer reachable on a phone, through an outage, at a counter.
// Every field is typed with pauses (some mid-word); the phone runs are at 390×844.

const PORT = Number(process.env.E2E_PORT ?? 8310);
/** The outage test's own port (8450–8459 are this branch's): a TCP proxy to the real server that it can cut. */
const PROXY_PORT = Number(process.env.E2E_PROXY_PORT ?? 8451);
const PHONE = { width: 390, height: 844 };

/** The first answer row, table or card list. */
const firstRow = (page: Page, list: string) =>
  page
    .getByRole('table', { name: list })
    .locator('tbody tr')
    .or(page.getByRole('list', { name: list }).locator('> li'))
    .first();

/** Records whether any text on the page ever read as an empty answer ("0 banks", "0 branches"…). */
async function watchForZeroCounts(page: Page) {
  await page.addInitScript(() => {
    const zero = /(^|\s)0 (banks|branches|agents|payout networks|with branches)\b/;
    const seen: string[] = [];
    (window as unknown as { zeroCounts: string[] }).zeroCounts = seen;
    const check = () => {
      const text = document.body?.innerText ?? '';
      const match = zero.exec(text);
      if (match) seen.push(match[0]);
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const zeroCounts = (page: Page) => page.evaluate(() => (window as unknown as { zeroCounts: string[] }).zeroCounts);

for (const screen of [
  { name: 'desktop 1280', use: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone 390×844', use: { viewport: PHONE, isMobile: true, hasTouch: true } },
]) {
  test.describe(`point 8: an outage ends by itself (${screen.name})`, () => {
    test.use(screen.use);
    let proxy: TcpProxy;
    test.beforeEach(async ({ page }) => {
      proxy = new TcpProxy('127.0.0.1', PORT);
      proxy.port = PROXY_PORT;
      await proxy.start();
      await signIn(page);
      await watchForZeroCounts(page);
    });
    test.afterEach(async () => proxy.close());

    test('the API unreachable for 10 s: errors with a reference, never "0 …", fresh data within 5 s of its return', async ({
      page,
    }) => {
      const consoleLines: string[] = [];
      page.on('console', (message) => consoleLines.push(message.text()));
      const base = `http://127.0.0.1:${PROXY_PORT}`;
      await page.goto(`${base}/branches?receivingCountry=IN&deliveryMode=04`);
      await expect(firstRow(page, 'Bank branches')).toBeVisible();
      // On a phone the browse lists are folded under MORE FILTERS: opened, as a teller would to see them.
      const more = page.getByRole('button', { name: /More filters/ });
      if (await more.isVisible()) await more.click();
      await expect(page.getByTestId('browse-facets')).toContainText(/\d+ banks/);

      // The server stops answering: every connection is refused, none is intercepted.
      await proxy.cut();
      const cutAt = Date.now();
      const bankName = page.getByLabel('Bank name');
      await typeLikeAPerson(bankName, ['Allah', 'abad'], [400]);
      const problem = page.getByTestId('problem').first();
      await expect(problem).toBeVisible({ timeout: 15_000 });
      await expect(problem).toContainText('Service unreachable');
      await expect(problem.getByTestId('correlation-id')).toHaveText(/^[0-9a-f-]{36}$/);
      // A sentence and a reference, never the API's path; the path is in the console.
      await expect(problem).not.toContainText('/v1/');
      expect(consoleLines.some((line) => line.includes('/v1/banks/branches'))).toBe(true);
      await expect(page.getByTestId('browse-facets')).toContainText('Not available: the list could not be loaded');
      await page.waitForTimeout(Math.max(0, 10_000 - (Date.now() - cutAt)));

      await proxy.restore();
      const backAt = Date.now();
      // No click: the answer for what the field holds arrives by itself.
      await expect(firstRow(page, 'Bank branches')).toContainText(/allahabad/i, { timeout: 5_000 });
      await expect(page.getByTestId('problem')).toHaveCount(0);
      console.log(`recovered ${Date.now() - backAt} ms after the API's return`);
      // The bank-name filter holds "Allahabad": the facet counts the one bank it matches.
      await expect(page.getByTestId('browse-facets')).toContainText(/\d+ banks?/);
      expect(await zeroCounts(page)).toEqual([]);
    });
  });
}

test.describe('desktop 1280', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test.beforeEach(async ({ page }) => signIn(page));

  test('point 4: a country with several modes asks for one; a deep link with a mode keeps it', async ({ page }) => {
    await page.goto('/agents');
    const country = page.getByRole('combobox', { name: 'Receiving country' });
    await typeLikeAPerson(country, ['Mex', 'ico'], [300]);
    await page.getByRole('option', { name: /Mexico \(MX\)/ }).click();
    const ask = page.getByTestId('choose-mode');
    await expect(ask).toContainText('Mexico offers several delivery modes: choose one.');
    expect(new URL(page.url()).searchParams.get('deliveryMode')).toBeNull();
    await docsScreenshot(page, 'teller-choose-mode.png');
    await expect(
      page.getByRole('status').filter({ hasText: 'Choose a receiving country and a delivery mode' }),
    ).toBeVisible();
    await ask.getByRole('button', { name: /^01 · Cash Pickup/ }).click();
    await expect(page).toHaveURL(/deliveryMode=01/);
    await expect(ask).toHaveCount(0);

    await page.goto('/agents?receivingCountry=MX&deliveryMode=02');
    await expect(page.getByRole('combobox', { name: 'Delivery mode' })).toHaveText(/02 · Home Delivery/);
    await expect(page.getByTestId('choose-mode')).toHaveCount(0);
    // A country with one mode needs no question (India: 04 only).
    await clearLikeAPerson(country);
    await typeLikeAPerson(country, ['Ind', 'ia'], [250]);
    await page.getByRole('option', { name: /India \(IN\)/ }).click();
    await expect(page).toHaveURL(/deliveryMode=04/);
  });

  test('point 5: "Tequesquitlan" offers Tequesquitlán, one click applies it; fields do not auto-correct', async ({
    page,
  }) => {
    await page.goto('/agents?receivingCountry=MX&deliveryMode=01');
    const search = page.getByLabel('Search head office or agent name');
    for (const [name, value] of [
      ['autocapitalize', 'off'],
      ['autocorrect', 'off'],
      ['spellcheck', 'false'],
    ])
      await expect(search).toHaveAttribute(name, value);
    await expect(page.getByRole('textbox', { name: 'Find by code' })).toHaveAttribute('autocapitalize', 'off');
    await typeLikeAPerson(search, ['Tequesq', 'uitlan'], [500]);
    const suggestion = page.getByTestId('did-you-mean');
    // The suggestion is a search tried before it is offered: it says how many it finds.
    await expect(suggestion).toContainText(/Did you mean "Tequesquitlán" — \d+ agents?\?/);
    await expectAccessible(page);
    await docsScreenshot(page, 'teller-did-you-mean.png');
    await suggestion.getByRole('button', { name: /Tequesquitlán/ }).click();
    await expect(search).toHaveValue('Tequesquitlán');
    await expect(firstRow(page, 'Agents')).toContainText('Tequesquitlán');
  });

  test('point 6: a bank code set by a browse click, a URL or a suggestion shrinks its label', async ({ page }) => {
    await page.goto('/branches?receivingCountry=IN&deliveryMode=04');
    const bank = page.getByRole('combobox', { name: 'Browse: bank' });
    await typeLikeAPerson(bank, ['Bank of Bar', 'oda'], [350]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/bankCode=BARB/);
    const code = page.getByLabel('Bank code / routing number');
    await expect(code).toHaveValue('BARB');
    const label = page.locator(`label[for="${await code.getAttribute('id')}"]`);
    await expect(label).toHaveAttribute('data-shrink', 'true');
    await page.goto('/branches?receivingCountry=IN&deliveryMode=04&bankCode=SBIN&bankName=State');
    for (const name of ['Bank code / routing number', 'Bank name']) {
      const field = page.getByLabel(name, { exact: true });
      await expect(page.locator(`label[for="${await field.getAttribute('id')}"]`)).toHaveAttribute(
        'data-shrink',
        'true',
      );
    }
    await page.goto('/agents?receivingCountry=MX&deliveryMode=01&search=Tequesquitl%C3%A1n');
    const search = page.getByLabel('Search head office or agent name');
    await expect(page.locator(`label[for="${await search.getAttribute('id')}"]`)).toHaveAttribute(
      'data-shrink',
      'true',
    );
  });

  test('point 12: a refused request reads as a sentence and a reference, never an API path', async ({ page }) => {
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(message.text()));
    // A hand-edited parameter the API refuses (400).
    await page.goto('/agents?receivingCountry=MX&deliveryMode=01&pagesize=10');
    const problem = page.getByTestId('problem');
    await expect(problem).toContainText('The request was not accepted');
    await expect(problem).toContainText('A value in this search is not accepted by the service.');
    await expect(problem.getByTestId('correlation-id')).toHaveText(/^[0-9a-f-]{36}$/);
    await expect(problem).toContainText('Reference for support:');
    await expect(problem).not.toContainText('/v1/');
    expect(consoleLines.some((line) => line.includes('/v1/agents'))).toBe(true);
    await expectAccessible(page);
  });

  test('point 15: recent searches kept on the device, clearable; Reset empties the screen', async ({ page }) => {
    await page.goto('/agents?receivingCountry=MX&deliveryMode=01');
    const search = page.getByLabel('Search head office or agent name');
    await typeLikeAPerson(search, ['Elek', 'tra'], [400]);
    await expect(firstRow(page, 'Agents')).toContainText('Elektra');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('rpl.recentSearches') ?? ''), { timeout: 5_000 })
      .toContain('Elektra');
    await page.getByRole('button', { name: 'Reset this screen: clear its filters' }).click();
    await expect(search).toHaveValue('');
    await expect(page).toHaveURL(/\/agents\?receivingCountry=MX&deliveryMode=01$/);
    await page.getByRole('button', { name: 'Recent searches on this device' }).click();
    await page.getByRole('menuitem', { name: /Agents: MX · 01 · Elektra/ }).click();
    await expect(search).toHaveValue('Elektra');
    await expect(firstRow(page, 'Agents')).toContainText('Elektra');
    // Every screen has both.
    for (const path of ['/payout-networks', '/branches', '/code?code=SBIN0000300']) {
      await page.goto(`${path}${path.includes('?') ? '&' : '?'}receivingCountry=IN&deliveryMode=04`);
      await expect(page.getByRole('button', { name: 'Reset this screen: clear its filters' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Recent searches on this device' })).toBeVisible();
    }
    await page.getByRole('button', { name: 'Recent searches on this device' }).click();
    await page.getByRole('menuitem', { name: 'Clear recent searches' }).click();
    expect(await page.evaluate(() => localStorage.getItem('rpl.recentSearches'))).toBeNull();
    await page.getByRole('button', { name: 'Recent searches on this device' }).click();
    await expect(page.getByRole('menuitem', { name: 'No recent searches on this device yet.' })).toBeVisible();
  });
});

for (const device of [
  { name: 'desktop 1280', viewport: { width: 1280, height: 800 } },
  { name: 'phone 390×844', viewport: PHONE },
]) {
  test.describe(device.name, () => {
    test.use({ viewport: device.viewport });

    test('point 9: the long lists filter as one types and work with the keyboard alone', async ({ page }) => {
      await signIn(page);
      await page.goto('/branches?receivingCountry=IN&deliveryMode=04');
      // The screen drawn first: on a phone the browse lists are folded under MORE FILTERS.
      await expect(firstRow(page, 'Bank branches')).toBeVisible();
      const more = page.getByRole('button', { name: /More filters/ });
      if (await more.isVisible()) await more.click();
      const bank = page.getByRole('combobox', { name: 'Browse: bank' });
      await bank.focus();
      // Bank of Baroda: branches in Maharashtra, Pune among them (the shipped India extract).
      await bank.pressSequentially('bank of ba', { delay: 90 });
      await page.waitForTimeout(300);
      await bank.pressSequentially('roda', { delay: 90 });
      await expect(page.getByRole('option')).toHaveCount(1);
      await expect(page.getByRole('option')).toContainText('(BARB)');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/bankCode=BARB/);
      const state = page.getByRole('combobox', { name: 'Browse: state' });
      await expect(state).toBeEnabled();
      await page.keyboard.press('Tab');
      await expect(state).toBeFocused();
      await state.pressSequentially('maha', { delay: 90 });
      await expect(page.getByRole('option').first()).toContainText(/maharashtra/i);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/state=/);
      const city = page.getByRole('combobox', { name: 'Browse: city' });
      await expect(city).toBeEnabled();
      await page.keyboard.press('Tab');
      await expect(city).toBeFocused();
      await city.pressSequentially('pu', { delay: 90 });
      await page.waitForTimeout(250);
      await city.pressSequentially('ne', { delay: 90 });
      const options = page.getByRole('option');
      await expect(options.first()).toContainText(/pune/i);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/city=PUNE/i);
      await expect(firstRow(page, 'Bank branches')).toContainText(/pune/i);
      // The agents' state list too.
      await page.goto('/agents?receivingCountry=MX&deliveryMode=01');
      const agentState = page.getByRole('combobox', { name: 'State', exact: true });
      await agentState.focus();
      await agentState.pressSequentially('jal', { delay: 100 });
      await expect(page.getByRole('option')).toHaveCount(1);
      await expect(page.getByRole('option')).toContainText('(JAL)');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/state=JAL/);
      await expectAccessible(page);
    });

    test('point 10: keys typed as soon as the sign-in field shows are kept; then the focus is on the first field', async ({
      page,
    }) => {
      await page.goto('/');
      const field = page.getByLabel('Agent correspondent id');
      await expect(field).toBeVisible();
      // No click: the teller types at once, into whatever has the focus.
      await page.keyboard.type('ab1', { delay: 70 });
      await page.waitForTimeout(200);
      await page.keyboard.type('2cd', { delay: 70 });
      await expect(field).toHaveValue(/^ab12cd$/i);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('button', { name: /Agent AB12CD/ })).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Receiving country' })).toBeFocused();
      await page.keyboard.type('Bangl', { delay: 80 });
      await expect(page.getByRole('option', { name: /Bangladesh \(BD\)/ })).toBeVisible();
    });
  });
}

test.describe('phone 390×844', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });
  test.beforeEach(async ({ page }) => signIn(page));

  test('point 7: a one-line app bar, and the first answer visible after a search without scrolling', async ({
    page,
  }) => {
    await page.goto('/agents?receivingCountry=MX&deliveryMode=01');
    const bar = page.locator('header');
    const box = await bar.boundingBox();
    expect(box!.height).toBeLessThanOrEqual(64);
    const search = page.getByLabel('Search head office or agent name');
    await typeLikeAPerson(search, ['Elek', 'tra'], [350]);
    await page.keyboard.press('Enter');
    const row = firstRow(page, 'Agents');
    await expect(row).toContainText('Elektra');
    await expect(row).toBeInViewport({ ratio: 0.3 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await docsScreenshot(page, 'teller-phone-agents.png');

    await page.goto('/branches?receivingCountry=IN&deliveryMode=04');
    expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(64);
    const bankName = page.getByLabel('Bank name');
    await typeLikeAPerson(bankName, ['Allah', 'abad'], [350]);
    await page.keyboard.press('Enter');
    const branch = firstRow(page, 'Bank branches');
    await expect(branch).toContainText(/allahabad/i);
    await expect(branch).toBeInViewport({ ratio: 0.3 });
    // The filters folded into their one-line summary stay one tap away and do not push the answer out of sight.
    await expect(page.getByRole('button', { name: /^Filters/, expanded: false })).toContainText('Allahabad');
    await docsScreenshot(page, 'teller-phone-branches.png');
    await expectAccessible(page);
  });
});
