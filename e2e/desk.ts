import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, test, typeLikeAPerson } from './fixtures';

// The operations desk's e2e helpers, shared by its specs: accounts made the documented way (`npm run ops-user`,
// the password from stdin, on the e2e server's data), a sign-in typed as a person does, a signed-in browser, and
// the Spanish catalogue's check for English text.

export const DESK_PASSWORD = 'correct horse battery staple';

/** The data folder of the server this test's project runs against (playwright.config.ts). */
export const serverDataDir = () => String(test.info().project.metadata.dataDir);

/** The compiled `npm run ops-user` (built with the server `npm start` runs, before the servers start). */
const OPS_USER = join('dist', 'server', 'ops-user.js');

/**
 * An ops account, made on the test's server's data; a retry of a test finds the account its first attempt made
 * (same name, roles, password).
 */

export function addAccount(name: string, roles: string[], password = DESK_PASSWORD) {
  try {
    execFileSync(
      process.execPath,
      [OPS_USER, 'add', name, ...roles.flatMap((role) => ['--role', role]), '--password-stdin'],
      { input: `${password}\n`, env: { ...process.env, DATA_DIR: serverDataDir() }, stdio: 'pipe' },
    );
  } catch (error) {
    if (!String((error as { stderr?: Buffer }).stderr ?? '').includes('already exists')) throw error;
  }
}

/** Signs in on the desk (at `path`, /ops by default) as a person does: the user name field has the focus. */
export async function deskSignIn(page: Page, name: string, { password = DESK_PASSWORD, path = '/ops' } = {}) {
  await page.goto(path);
  const user = page.getByLabel('User name');
  await expect(user).toBeFocused();
  await page.keyboard.type(name.slice(0, 4), { delay: 80 });
  await page.waitForTimeout(250);
  await page.keyboard.type(name.slice(4), { delay: 90 });
  await typeLikeAPerson(page.getByLabel('Password'), [password.slice(0, 8), password.slice(8)]);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('ops-user')).toContainText(name);
}

/** A desk person in a browser context of their own (a second person: another context). */
export async function newDesk(
  browser: Browser,
  name: string,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await deskSignIn(page, name);
  return { context, page };
}

export type Messages = Record<string, unknown>;
export const catalogue = (code: string) =>
  JSON.parse(readFileSync(join(process.cwd(), 'src', 'portal', 'locales', `${code}.json`), 'utf8')) as Messages;

/** Every English text of a block that Spanish says otherwise, cut at its placeholders. */
export function englishTexts(en: unknown, es: unknown): string[] {
  if (typeof en === 'string')
    return en === es
      ? []
      : en
          .split(/\{\{\w+\}\}/)
          .map((part) => part.trim())
          .filter((part) => part.length >= 8);
  if (en && typeof en === 'object')
    return Object.entries(en).flatMap(([key, value]) => englishTexts(value, (es as Record<string, unknown>)?.[key]));
  return [];
}
