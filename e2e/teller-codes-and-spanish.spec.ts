import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { csvRows } from '../src/testing/csv-rows';
import { expect as baseExpect, expectAccessible, signIn, test } from './fixtures';

// The teller's screen never sends them the wrong way: a code one character off is answered with the bank it
// names and the held codes it could have been (each one tap from its record), and a Spanish teller reads the
// code screen's answers in Spanish, with country names where a country is named. Expected values come from the
// shipped CSV files and the catalogues.

const SEED = join(import.meta.dirname, '..', 'data', 'seed');
const india = csvRows(readFileSync(join(SEED, 'bank-branches', 'IN.csv')));
type Messages = { [key: string]: string | Messages };
const catalogue = (code: string) =>
  JSON.parse(readFileSync(join(process.cwd(), 'src', 'portal', 'locales', `${code}.json`), 'utf8')) as Record<
    string,
    Record<string, string | Messages>
  >;
const en = catalogue('en');
const es = catalogue('es');
/** A message of the catalogue with its placeholders filled (`{{x}}` and `{{x, formatter}}` alike). */
const fill = (message: string | Messages, values: Record<string, string>) =>
  (message as string).replace(/\{\{\s*(\w+)[^}]*\}\}/g, (_, name: string) => values[name] ?? '');
const code = (block: Record<string, string | Messages>, key: string) => block[key];

// The first start of the e2e server builds the search index: its first answers wait for it.
const expect = baseExpect.configure({ timeout: 30_000 });

test.beforeEach(async ({ page }) => signIn(page));

/** `/` to the code box, then the code typed as a person does: in parts, with pauses, then Enter. */
async function lookUp(page: Page, parts: string[]) {
  await page.keyboard.press('/');
  await expect(page.getByRole('search').getByRole('textbox')).toBeFocused();
  for (const [i, part] of parts.entries()) {
    if (i > 0) await page.waitForTimeout(200 + Math.round(Math.random() * 250));
    await page.keyboard.type(part, { delay: 60 + Math.round(Math.random() * 60) });
  }
  await page.keyboard.press('Enter');
}

const oneOff = (a: string, b: string) => a.length === b.length && [...a].filter((c, i) => c !== b[i]).length === 1;

test('a code one character off names its bank and offers the held codes; taking one shows that branch', async ({
  page,
}) => {
  const typed = 'BARB0COLINF';
  const meant = india.find((r) => r.routing_number === 'BARB0COLIND')!;
  const expected = india.filter((r) => oneOff(r.routing_number, typed)).map((r) => r.routing_number);
  expect(expected).toContain('BARB0COLIND');

  await page.goto('/');
  // The box is its own chunk, loaded right after the frame.
  await expect(page.getByRole('textbox', { name: 'Find by code' })).toBeVisible();
  await lookUp(page, ['barb 0', 'col', 'inf']);
  await expect(page.getByTestId('result-total')).toHaveText(`No record with the code ${typed}`);
  // The bank the first four letters name, held in the data set.
  await expect(page.getByTestId('code-near-bank')).toHaveText(
    fill(code(en.code, 'nearBank'), { bankCode: 'BARB', bank: meant.bank_name, country: 'India' }),
  );
  const near = page.getByTestId('code-near');
  await expect(near).toContainText(fill(code(en.code, 'nearCodes'), { code: typed }));
  // Exactly the held codes one character off, each with its bank and branch.
  const links = near.getByRole('link');
  await expect(links).toHaveText(expected.slice(0, 5));
  const item = near.locator('li').filter({ has: page.getByRole('link', { name: 'Look up BARB0COLIND' }) });
  await expect(item).toContainText(meant.bank_name);
  await expect(item).toContainText(meant.branch_name);
  await expect(item).toContainText(meant.city);
  await page.mouse.move(0, 0);
  await expectAccessible(page);

  // One tap: the record of the code taken.
  await page.getByRole('link', { name: 'Look up BARB0COLIND' }).click();
  await expect(page).toHaveURL(/code=BARB0COLIND/);
  await expect(page.getByTestId('result-total')).toHaveText('1 match for BARB0COLIND');
  const match = page.getByTestId('code-match');
  await expect(match).toHaveCount(1);
  await expect(match).toContainText(meant.branch_name);
  await expect(match).toContainText('BARB0COLIND');
  await expect(match).toContainText(meant.bank_name);
  await expect(page.getByTestId('code-near')).toHaveCount(0);
});

test.describe('a Spanish teller on a phone', () => {
  test.use({ locale: 'es-MX', viewport: { width: 390, height: 844 } });

  test('reads the code screen’s answers in Spanish, and countries by name', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('textbox', { name: code(es.code, 'box') as string })).toBeVisible();

    // A real IFSC the data set does not hold (State Bank of India's, on the RBI list).
    await lookUp(page, ['sbin', ' 0000', '300']);
    await expect(page.getByTestId('result-total')).toHaveText(fill(code(es.code, 'none'), { code: 'SBIN0000300' }));
    const issued = page.getByTestId('issued-ifsc');
    await expect(issued).toContainText(
      fill(code(es.code, 'issued'), { ifsc: 'SBIN0000300', bank: 'State Bank of India', bankCode: 'SBIN' }),
    );
    await expect(issued).toContainText(
      /Casas matrices que pagan en State Bank of India para la modalidad de entrega 04/,
    );
    await expect(issued).not.toContainText(/real IFSC|Head offices|RBI's list/);

    // An IFSC with no match: what it was looked up as, the bank it names, the codes one character off.
    await lookUp(page, ['BARB0', 'COLI', 'NF']);
    const unknown = page.getByTestId('code-unknown');
    const formats = es.code.formats as { IN: Record<string, string>; agent: string };
    const asIfsc = fill(code(es.code, 'formatOf'), { format: formats.IN.branch, country: 'India' });
    await expect(unknown).toHaveText(
      fill(code(es.code, 'lookedUpAs'), { formats: `${asIfsc}${code(es.code, 'andAs') as string}${formats.agent}` }),
    );
    await expect(page.getByTestId('code-near-bank')).toHaveText(
      fill(code(es.code, 'nearBank'), { bankCode: 'BARB', bank: 'BANK OF BARODA', country: 'India' }),
    );
    await expect(page.getByTestId('code-near')).toContainText(
      fill(code(es.code, 'nearCodes'), { code: 'BARB0COLINF' }),
    );
    await expect(page.getByTestId('code-near')).not.toContainText(/Looked up|one character off|Bank branch/);
    await expect(page.getByRole('link', { name: 'Buscar BARB0COLIND' })).toBeVisible();
    await page.mouse.move(0, 0);
    await expectAccessible(page);

    // A mode Mexico does not take branches for: the sentence names Mexico, not "MX".
    await page.goto('/branches?receivingCountry=MX&deliveryMode=01');
    await expect(page.getByRole('status').filter({ hasText: 'no la ofrece' })).toContainText('México no la ofrece.');
    await expect(page.getByText(/\bMX no la ofrece/)).toHaveCount(0);
  });
});
