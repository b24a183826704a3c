import { readFileSync } from 'node:fs';
import { expect, expectAccessible, paste, signIn, test, typeLikeAPerson, clearLikeAPerson } from './fixtures';

// One test per defect, typing with a teller's rhythm (keys 60–120 ms apart, pauses mid-word).

test.beforeEach(async ({ page }) => signIn(page));

const agentRows = (page: import('@playwright/test').Page) =>
  page.getByRole('table', { name: 'Agents' }).locator('tbody tr');
const branchRows = (page: import('@playwright/test').Page) =>
  page.getByRole('table', { name: 'Bank branches' }).locator('tbody tr');

test('1. no typed character is lost when the URL catches up with a pause mid-word', async ({ page }) => {
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&state=JAL');
  await expect(agentRows(page).first()).toBeVisible();
  const search = page.getByLabel('Search head office or agent name');
  // Pauses around the typing debounce: the URL write lands while the next word is being typed.
  for (const pause of [300, 380, 450]) {
    await clearLikeAPerson(search);
    await typeLikeAPerson(search, ['OXXO', ' Zapopan'], [pause]);
    await expect(search).toHaveValue('OXXO Zapopan');
    await expect(page).toHaveURL(/search=OXXO(\+|%20)Zapopan/);
    await page.waitForTimeout(400);
    await expect(search).toHaveValue('OXXO Zapopan');
  }

  // Typing right after choosing a state keeps the first letters.
  for (let run = 0; run < 4; run++) {
    await clearLikeAPerson(search);
    const state = page.getByRole('combobox', { name: 'State' });
    if (run % 2) {
      await state.click();
      await page.getByRole('option', { name: /Jalisco/ }).click();
    } else {
      // The state list is a combobox: emptying it is "all states".
      await state.click();
      await state.press('ControlOrMeta+A');
      await state.press('Backspace');
      await page.keyboard.press('Escape');
    }
    await page.waitForTimeout(150 + run * 15);
    await search.pressSequentially('OXXO', { delay: 80 });
    await page.waitForTimeout(500);
    await expect(search).toHaveValue('OXXO');
  }

  // Branch location on the branch finder: "agra" + pause + "bad corporate".
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=SONLBD');
  await expect(branchRows(page).first()).toBeVisible();
  const location = page.getByLabel('Branch location');
  await typeLikeAPerson(location, ['agra', 'bad corporate'], [380]);
  await expect(location).toHaveValue('agrabad corporate');
  await expect(page).toHaveURL(/branchLocation=agrabad(\+|%20)corporate/);
  await expect(branchRows(page).first()).toContainText('AGRABAD CORPORATE');
  await expect(location).toHaveValue('agrabad corporate');
});

test('2. results on screen belong to the fields on screen: invalid input hides them, pending input marks them, pasted codes are trimmed', async ({
  page,
}) => {
  await page.goto(
    '/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=ICICIN&bankCode=BARB0AKHABA',
  );
  await expect(branchRows(page)).toHaveCount(1);
  // India's name for the code.
  const copy = page.getByRole('button', { name: 'Copy IFSC BARB0AKHABA' });
  await expect(copy).toBeVisible();

  // Over 100 characters: the contract's message, and no row of the previous answer.
  await paste(page.getByLabel('Bank name'), 'B'.repeat(101));
  await expect(page.getByText('Bank name must be at most 100 characters')).toBeVisible();
  await expect(page.getByTestId('results-hidden')).toBeVisible();
  await expect(copy).toHaveCount(0);
  await clearLikeAPerson(page.getByLabel('Bank name'));
  await expect(copy).toBeVisible();

  // A code pasted from a cheque with a tab and spaces around it is trimmed and found.
  const code = page.getByLabel('Bank code / routing number');
  await clearLikeAPerson(code);
  await paste(code, '\tBARB0AKHABA  ');
  await code.press('Enter');
  await expect(page).toHaveURL(/bankCode=BARB0AKHABA(&|$)/);
  await expect(page.getByText(/must be letters and digits only/)).toHaveCount(0);
  await expect(copy).toBeVisible();

  // The API goes down: while the new filter is unanswered, the old rows are marked and out of reach.
  await page.route('**/v1/banks/branches?**', (route) => route.abort());
  await clearLikeAPerson(code);
  await typeLikeAPerson(code, ['SBIN'], []);
  await expect(page.getByTestId('results-stale')).toBeVisible();
  await expect(copy).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'Service unreachable' })).toBeVisible({ timeout: 15_000 });
  await expect(copy).toHaveCount(0);
});

// Measured in the page: it runs alone (the @alone project), as another browser busy beside it delays its keys.
test(
  '3. a request leaves about 300 ms after the last key; Enter sends it at once',
  { tag: '@alone' },
  async ({ page }) => {
    await page.goto('/agents?receivingCountry=MX&deliveryMode=01');
    await expect(agentRows(page).first()).toBeVisible();
    // Both times are taken in the page: the last input event, and when the browser started the request.
    await page.evaluate(() => {
      const times = ((window as unknown as { times: Record<string, number> }).times = { input: 0, enter: 0 });
      const inputs: { at: number; value: string }[] = [];
      (window as unknown as { inputs: typeof inputs }).inputs = inputs;
      document.addEventListener(
        'input',
        (event) => {
          times.input = performance.now();
          inputs.push({ at: times.input, value: (event.target as HTMLInputElement).value });
        },
        true,
      );
      document.addEventListener('keydown', (event) => event.key === 'Enter' && (times.enter = performance.now()), true);
    });
    const timing = (search: string, key: 'input' | 'enter') =>
      page.evaluate(
        ([text, which]) => {
          const query = `search=${encodeURIComponent(text).replace(/%20/g, '+')}`;
          const requests = performance
            .getEntriesByType('resource')
            .filter((e) => e.name.includes('/v1/agents?') && !e.name.includes('pageNumber='));
          const request = requests.find(
            (e) =>
              e.name.includes(query) &&
              !e.name.includes(`${query}+`) &&
              new URL(e.name).searchParams.get('search') === text,
          );
          return {
            delay: request
              ? Math.round(request.startTime - (window as unknown as { times: Record<string, number> }).times[which])
              : null,
            searches: requests.map((e) => new URL(e.name).searchParams.get('search')),
          };
        },
        [search, key] as const,
      );
    const search = page.getByLabel('Search head office or agent name');
    await typeLikeAPerson(search, ['OXXO']);
    await expect.poll(async () => (await timing('OXXO', 'input')).delay).not.toBeNull();
    const typed = await timing('OXXO', 'input');
    console.log(`debounce: request ${typed.delay} ms after the last key`);
    expect(typed.delay).toBeGreaterThanOrEqual(250);
    expect(typed.delay).toBeLessThan(500);
    // No request while the teller is typing: a request for a partial word ("OX") only when the keys paused for the
    // debounce after it (a busy test machine can delay a key that long), never with a key in between.
    const partials = await page.evaluate(() => {
      const inputs = (window as unknown as { inputs: { at: number; value: string }[] }).inputs;
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/v1/agents?') && !e.name.includes('pageNumber='))
        .map((e) => ({ search: new URL(e.name).searchParams.get('search'), at: e.startTime }))
        .filter((r) => r.search !== null && r.search !== 'OXXO')
        .map((r) => {
          const typed = inputs.filter((i) => i.at < r.at).at(-1);
          return { search: r.search, typed: typed?.value, quietMs: typed ? Math.round(r.at - typed.at) : null };
        });
    });
    if (partials.length) console.log(`requests for a partial word after a pause: ${JSON.stringify(partials)}`);
    for (const partial of partials) {
      expect(partial.typed, 'the request is for what the field held then').toBe(partial.search);
      expect(partial.quietMs).toBeGreaterThanOrEqual(250);
    }

    await search.pressSequentially(' Guadalajara', { delay: 70 });
    await search.press('Enter');
    await expect.poll(async () => (await timing('OXXO Guadalajara', 'enter')).delay).not.toBeNull();
    const entered = await timing('OXXO Guadalajara', 'enter');
    console.log(`Enter: request ${entered.delay} ms after the key`);
    expect(entered.delay).toBeLessThan(150);
  },
);

test('4. every empty state names its actual cause, and a page past the end leads back to page 1', async ({ page }) => {
  // No bank code typed: the message names the filters, not bank codes.
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD');
  await expect(branchRows(page).first()).toBeVisible();
  await typeLikeAPerson(page.getByLabel('Bank name'), ['ZZZ', 'NOBANK']);
  const empty = page.getByTestId('results-empty');
  await expect(empty).toContainText('No branches of BRAC BANK LIMITED (BRACBD) match bank name "ZZZNOBANK".');
  await expect(empty.getByTestId('empty-cause')).toHaveAttribute('data-cause', 'none');

  // An unknown head office.
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=ZZZZZZ');
  await expect(empty).toHaveText(
    'Head office ZZZZZZ is not one of the mode-04 payout networks of Bangladesh: choose one from the list.',
  );

  // A malformed IFSC.
  await page.goto('/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=ICICIN');
  await expect(branchRows(page).first()).toBeVisible();
  await typeLikeAPerson(page.getByLabel('Bank code / routing number'), ['SBIN', '00003']);
  await expect(empty).toHaveText(
    'No branches: "SBIN00003" is not a bank code of 4 letters or an IFSC (4 letters, 0, then 6 letters or digits).',
  );

  // A bank outside the head office: the head offices that do pay into it, one click away.
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=SONLBD');
  await expect(branchRows(page).first()).toBeVisible();
  await typeLikeAPerson(page.getByLabel('Bank code / routing number'), ['02', '0']);
  await expect(empty).toContainText(
    'SONALI BANK LIMITED (SONLBD) does not pay into 020: a bank code must belong to the chosen head office. Head offices that do: BRAC BANK LIMITED (BRACBD).',
  );
  await empty.getByRole('button', { name: 'BRAC BANK LIMITED (BRACBD)' }).click();
  await expect(page).toHaveURL(/receivingAgentHeadOfficeCode=BRACBD/);
  await expect(branchRows(page).first()).toContainText('020');
  await expectAccessible(page);

  // A page past the end, without any search: no word about case, and a way back.
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&pageNumber=999');
  await expect(empty).toContainText('Page 999 is past the end');
  await expect(empty).not.toContainText(/case/i);
  await empty.getByRole('button', { name: 'Go to page 1' }).click();
  await expect(agentRows(page)).toHaveCount(50);

  // No agents for a search: the case named as the cause only when another letter case finds rows.
  await typeLikeAPerson(page.getByLabel('Search head office or agent name'), ['ox', 'xo']);
  await expect(empty).toContainText('No agents match "oxxo".');
  await expect(empty.getByTestId('empty-cause')).toHaveText(
    'The search is case-sensitive: another letter case finds it.',
  );
});

test('5. the mode-04 agent list shows the bank, and the branch finder opens on the typed bank, branch and head office', async ({
  page,
}) => {
  await page.goto('/agents?receivingCountry=BD&deliveryMode=04');
  await expect(agentRows(page).first()).toBeVisible();
  await typeLikeAPerson(page.getByLabel('Search head office or agent name'), ['SONALI BA', 'NK, AGRA', 'BAD']);
  await expect(page).toHaveURL(/search=SONALI(\+|%20)BANK%2C(\+|%20)AGRABAD/);
  const row = agentRows(page).filter({ hasText: '200150163' }).first();
  await expect(row).toContainText('SONALI BANK LIMITED');
  await expect(page.getByRole('columnheader', { name: 'Bank' })).toBeVisible();
  const headOffice = (await agentRows(page)
    .first()
    .getByRole('button', { name: /^Copy head office code/ })
    .getAttribute('aria-label'))!
    .split(' ')
    .pop()!;
  await expectAccessible(page);

  await page.getByTestId('branch-finder-pointer').getByRole('link', { name: 'Open branch finder' }).click();
  await expect(page).toHaveURL(new RegExp(`/branches\\?.*receivingAgentHeadOfficeCode=${headOffice}`));
  await expect(page.getByLabel('Bank name')).toHaveValue('SONALI BANK');
  await expect(page.getByLabel('Branch location')).toHaveValue('AGRABAD');
  await expect(page.getByRole('combobox', { name: 'Head office' })).toContainText(headOffice);
  await expect(branchRows(page).filter({ hasText: '200150163' })).toHaveCount(1);
});

test('6. a screen that cannot be loaded keeps the app bar and tabs, says so, and loads once the server is back', async ({
  page,
}) => {
  // The code screen is a chunk of its own (the three screens of the spec are in the entry).
  await page.goto('/agents?receivingCountry=IN&deliveryMode=04');
  await expect(agentRows(page).first()).toBeVisible();
  await page.route('**/assets/code-*.js', (route) => route.abort());
  const codeBox = page.getByRole('textbox', { name: 'Find by code' });
  await typeLikeAPerson(codeBox, ['SBIN', '0000691']);
  await codeBox.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'This screen could not be loaded' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Agents' })).toBeVisible();
  await expect(page.getByLabel('Receiving country')).toBeVisible();
  await page.unroute('**/assets/code-*.js');
  await expect(page.getByRole('heading', { name: 'Find by code' })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/code\?.*code=SBIN0000691/);
});

test('7. sign-in checks the id with the service and upper-cases a typed one', async ({ browser }) => {
  const context = await browser.newContext(); // not signed in
  const page = await context.newPage();
  await page.goto('/');
  const id = page.getByLabel('Agent correspondent id');
  await typeLikeAPerson(id, ['zz9', '9zz']);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(/The service does not know the id ZZ99ZZ/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page);

  await clearLikeAPerson(id);
  await typeLikeAPerson(id, ['ab1', '2cd']);
  await expect(id).toHaveCSS('text-transform', 'uppercase');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: /Agent AB12CD/ })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('rpl.correspondentId'))).toBe('AB12CD');
  await context.close();
});

test('8. a mistyped URL parameter reaches the API and its 400 is shown', async ({ page }) => {
  const answer = page.waitForResponse((r) => r.url().includes('/v1/agents'));
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&pagesize=10');
  expect((await answer).status()).toBe(400);
  // A sentence and a reference, the refused parameter named with the API's reason.
  const alert = page.getByRole('alert').filter({ hasText: 'The request was not accepted' });
  await expect(alert.getByRole('listitem')).toContainText('pagesize');
  await expect(alert.getByRole('listitem')).toContainText('is not a parameter of this operation');
  await expect(alert.getByTestId('correlation-id')).toBeVisible();
});

test('9. CSV export: every matching row, filters in the file name, BOM, codes as text, formulas neutralised', async ({
  page,
}) => {
  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&state=JAL&search=OXXO');
  await expect(agentRows(page)).toHaveCount(50);
  const total = Number((await page.getByTestId('result-total').textContent())!.replace(/\D/g, ''));
  expect(total).toBeGreaterThan(50);
  await expect(page.getByTestId('export-scope')).toHaveText(`Exports all ${total} rows`);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(
    `agents_receivingCountry-MX_deliveryMode-01_state-JAL_search-OXXO_all-${total}.csv`,
  );
  const bytes = readFileSync(await file.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).trim().split('\n');
  expect(lines).toHaveLength(total + 1);
  expect(lines[0]).toBe(
    'agent_code,head_office_code,country,agent_name,address_line1,address_line2,city,state,phone_number',
  );
  // The import format: plain codes, a phone number (it starts with a sign) with the apostrophe the importer
  // removes, accents intact.
  expect(lines[1]).toMatch(/^[A-Z0-9]+,/);
  expect(lines.some((line) => /,'\+52 [\d ]+$/.test(line))).toBe(true);
  expect(bytes.toString('utf8')).toContain('Jalisco');

  // Bangladesh routing numbers keep their leading zero.
  await page.goto(
    '/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=SONLBD&bankCode=010150166',
  );
  await expect(branchRows(page)).toHaveCount(1);
  const second = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const branches = readFileSync(await (await second).path(), 'utf8');
  expect(branches).toContain('BD,010,AGRANI BANK LIMITED,010150166,');
});

test('10. a place under either name: Chittagong finds Chattogram, and the state list gives both', async ({ page }) => {
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=SONLBD');
  await expect(branchRows(page).first()).toBeVisible();
  await typeLikeAPerson(page.getByLabel('District', { exact: true }), ['Chitta', 'gong']);
  await expect(page).toHaveURL(/district=Chittagong/);
  await expect(branchRows(page).first()).toContainText('Chattogram');
  await expect(page.getByTestId('results-empty')).toHaveCount(0);

  await page.goto('/agents?receivingCountry=BD&deliveryMode=01');
  await page.getByRole('combobox', { name: 'State' }).click();
  await expect(page.getByRole('option', { name: /Chittagong Division \(Chattogram\)/ })).toBeVisible();
});

test('11. counts are in the right number: "1 branch", "1 payout network"', async ({ page }) => {
  await page.goto(
    '/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=ICICIN&bankCode=BARB0AKHABA',
  );
  await expect(page.getByTestId('result-total')).toHaveText('1 branch');
  await page.goto('/payout-networks?receivingCountry=BD&deliveryMode=05');
  await expect(page.getByTestId('result-total')).toHaveText('1 payout network');
});

test('12. on a 390 px phone: filters folded, results as cards near the top, nothing sideways, every tab and page button reachable', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=SONLBD');
  const cards = page.getByRole('list', { name: 'Bank branches' }).getByRole('listitem');
  await expect(cards.first()).toBeVisible();
  const firstCardTop = (await cards.first().boundingBox())!.y;
  console.log(`390 px branch finder: first result card at ${Math.round(firstCardTop)} px`);
  // Before a search the filters are open, every field a 44 px target; a search folds them into one line (the
  // first answer then in view: teller-phone.spec.ts).
  expect(firstCardTop).toBeLessThan(1000);
  await expect(page.getByLabel('Branch location')).toHaveCount(0);
  await page.getByRole('button', { name: /More filters/ }).click();
  await expect(page.getByLabel('Branch location')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  for (const name of ['Agents', 'Payout networks', 'Bank branches']) {
    const box = (await page.getByRole('tab', { name }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  const last = page.getByRole('button', { name: 'Go to last page' });
  await last.scrollIntoViewIfNeeded();
  const lastBox = (await last.boundingBox())!;
  expect(lastBox.x + lastBox.width).toBeLessThanOrEqual(390);
  await last.click();
  await expect(page).toHaveURL(/pageNumber=\d+/);
  await expectAccessible(page);

  await page.goto('/agents?receivingCountry=MX&deliveryMode=01&state=JAL');
  const agentCards = page.getByRole('list', { name: 'Agents' }).getByRole('listitem');
  await expect(agentCards.first()).toBeVisible();
  console.log(`390 px agents: first result card at ${Math.round((await agentCards.first().boundingBox())!.y)} px`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);

  await page.getByRole('tab', { name: 'Payout networks' }).click();
  await expect(page.getByRole('list', { name: 'Payout networks' }).getByRole('listitem').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
});

test('13. India branch text is restored: no mojibake, the en dash and quotes as published', async ({ page }) => {
  await page.goto('/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=ICICIN');
  await expect(branchRows(page).first()).toBeVisible();
  await typeLikeAPerson(page.getByLabel('Branch location'), ['“SHI', 'VAM”']);
  const row = branchRows(page).filter({ hasText: 'BARB0BORIAV' });
  await expect(row).toContainText('“SHIVAM” GROUND FLOOR');
  await expect(row).toContainText('GUJARAT – 388310');
  await expect(page.locator('main')).not.toContainText('┬');
});
