import type { Page } from '@playwright/test';
import {
  CORRESPONDENT_ID,
  chooseCountry,
  clearLikeAPerson,
  expect as baseExpect,
  expectAccessible,
  signIn,
  test,
  typeLikeAPerson,
} from './fixtures';

// What a country offers, said in words when it is chosen, and a link naming a mode the country does not offer
// answered with that sentence and a way back instead of the service's refusal; mode-04 agent rows (India) counted
// and labelled as the bank branches they are, each listed once per head office that pays into it.

// Two cores shared by several engineers: an answer may take seconds.
const expect = baseExpect.configure({ timeout: 30_000 });

const api = async <T>(page: Page, path: string): Promise<T> => {
  const response = await page.request.get(path, { headers: { 'x-fapi-financial-id': CORRESPONDENT_ID } });
  expect(response.status()).toBe(200);
  return (await response.json()) as T;
};

const agentRows = (page: Page) => page.getByRole('table', { name: /^Agents/ }).locator('tbody tr');

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.describe('in English', () => {
  test.use({ locale: 'en-US', viewport: { width: 1280, height: 900 } });

  test('choosing India, typed, says it offers account transfer only, no cash pickup', async ({ page }) => {
    await page.goto('/agents');
    const country = page.getByRole('combobox', { name: 'Receiving country' });
    await typeLikeAPerson(country, ['In', 'dia'], [400]);
    await page.getByRole('option', { name: /India \(IN\)/ }).click();
    await expect(country).toHaveValue('India (IN)');
    await expect(page).toHaveURL(/receivingCountry=IN&deliveryMode=04/);
    await expect(page.getByTestId('offered-modes')).toHaveText(
      'India: account transfer to another bank (04) only — no cash pickup, home delivery, account deposit, or mobile wallet.',
    );
    await expect(agentRows(page).first()).toBeVisible();
    await expectAccessible(page);
  });

  test('a link with mode 01 for India says why in words, and its button takes mode 04 and shows rows', async ({
    page,
  }) => {
    await page.goto('/agents?receivingCountry=IN&deliveryMode=01');
    const notOffered = page.getByTestId('mode-not-offered');
    await expect(notOffered).toContainText(
      'Delivery mode 01 (Cash Pickup) is not offered for India. India: account transfer to another bank (04) only — no cash pickup, home delivery, account deposit, or mobile wallet.',
    );
    await expect(page.getByRole('combobox', { name: 'Receiving country' })).toHaveValue('India (IN)');
    // No refusal of the service on screen, no raw field name.
    await expect(page.getByTestId('problem')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('deliveryMode');
    await expectAccessible(page);

    const back = notOffered.getByRole('button', { name: 'Use 04 · Account Transfer to Other Bank' });
    await expect(back).toBeEnabled();
    await back.click();
    await expect(page).toHaveURL(/receivingCountry=IN&deliveryMode=04/);
    await expect(notOffered).toHaveCount(0);
    await expect(agentRows(page).first()).toBeVisible();
    await expect(agentRows(page).first()).toContainText(/[A-Z]{4}0[A-Z0-9]{6}/);
    await expectAccessible(page);
  });

  test("India's agent count and rows say bank branches reachable through its head offices", async ({ page }) => {
    await page.goto('/agents');
    await chooseCountry(page, 'Indi', /India \(IN\)/);
    await expect(page).toHaveURL(/receivingCountry=IN&deliveryMode=04/);
    const { pagination } = await api<{ pagination: { totalItems: number } }>(
      page,
      '/v1/agents?receivingCountry=IN&deliveryMode=04&pageSize=1',
    );
    const { data: headOffices } = await api<{ data: { receivingAgentHeadOfficeCode: string }[] }>(
      page,
      '/v1/payout-networks?receivingCountry=IN&deliveryMode=04',
    );
    expect(headOffices.length).toBeGreaterThan(1);
    await expect(page.getByTestId('result-total')).toHaveText(
      `${pagination.totalItems.toLocaleString('en-US')} bank branches reachable through ${headOffices.length} head offices (a branch is listed once per head office that pays into it)`,
    );
    const table = page.getByRole('table', { name: 'Agents: bank branches reachable through a head office' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Branch', exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Paid through head office' })).toBeVisible();
    // Each row's head office is one of India's mode-04 head offices.
    const codes = headOffices.map((office) => office.receivingAgentHeadOfficeCode);
    const first = await agentRows(page)
      .first()
      .getByRole('button', { name: /^Copy head office code/ })
      .getAttribute('aria-label');
    expect(codes).toContain(first!.split(' ').pop());

    // A search narrows the rows; the count still says what they are.
    await typeLikeAPerson(page.getByLabel('Search head office or agent name'), ['STATE BANK', ' OF IN', 'DIA']);
    await expect(page).toHaveURL(/search=STATE/);
    await expect(page.getByTestId('result-total')).toContainText(/^[\d,]+ bank branch(es)? reachable through/);
    await expectAccessible(page);
  });

  test('countries with several modes list them in words: Bangladesh and Mexico', async ({ page }) => {
    await page.goto('/agents');
    await chooseCountry(page, 'Bangla', /Bangladesh \(BD\)/);
    await expect(page.getByRole('combobox', { name: 'Receiving country' })).toHaveValue('Bangladesh (BD)');
    await expect(page.getByTestId('offered-modes')).toHaveText(
      'Bangladesh offers cash pickup (01), account deposit (03), account transfer to another bank (04), and mobile wallet (05) — no home delivery.',
    );
    await expectAccessible(page);

    const country = page.getByRole('combobox', { name: 'Receiving country' });
    await clearLikeAPerson(country);
    await typeLikeAPerson(country, ['Mex', 'ico'], [350]);
    await page.getByRole('option', { name: /Mexico \(MX\)/ }).click();
    // Several modes and none chosen: the teller is asked, and told what the country offers.
    await expect(page.getByTestId('choose-mode')).toBeVisible();
    await expect(page.getByTestId('offered-modes')).toHaveText(
      'Mexico offers cash pickup (01), home delivery (02), and account deposit (03) — no account transfer to another bank or mobile wallet.',
    );
    await expectAccessible(page);
  });
});

test.describe('in Spanish on a phone', () => {
  test.use({ locale: 'es-ES', viewport: { width: 390, height: 844 } });

  test('a link with mode 01 for India says why in Spanish, and the way back shows rows', async ({ page }) => {
    await page.goto('/agents?receivingCountry=IN&deliveryMode=01');
    const notOffered = page.getByTestId('mode-not-offered');
    await expect(notOffered).toContainText(
      'La modalidad de entrega 01 (Retiro en efectivo) no se ofrece para India. India: solo transferencia a una cuenta de otro banco (04) — sin retiro en efectivo, entrega a domicilio, depósito en cuenta o billetera móvil.',
    );
    await expect(page.getByTestId('problem')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('deliveryMode');
    await expect(page.locator('body')).not.toContainText('este valor no se acepta');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);

    await notOffered.getByRole('button', { name: 'Usar 04 · Transferencia a cuenta de otro banco' }).click();
    await expect(page).toHaveURL(/receivingCountry=IN&deliveryMode=04/);
    await expect(notOffered).toHaveCount(0);
    await expect(page.getByTestId('offered-modes')).toHaveText(
      'India: solo transferencia a una cuenta de otro banco (04) — sin retiro en efectivo, entrega a domicilio, depósito en cuenta o billetera móvil.',
    );
    const cards = page.getByRole('list', { name: /^Agentes: sucursales bancarias/ }).getByRole('listitem');
    await expect(cards.first()).toBeVisible();
    await expect(page.getByTestId('result-total')).toContainText(
      /^[\d.\s]+ sucursales bancarias alcanzables a través de 2 casas matrices/,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
  });
});
