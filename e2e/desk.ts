import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, typeLikeAPerson } from './fixtures';

// The operations desk's people in the e2e suite: their accounts, made the documented way (`npm run ops-user`,
// the password from stdin, on the e2e server's data), and their sign-in, typed with pauses.

export const DESK_PASSWORD = 'correct horse battery staple';

/** An ops account; a retry of a test finds the account its first attempt made (same name, roles, password). */
export function addAccount(name: string, roles: string[], password = DESK_PASSWORD) {
  try {
    execFileSync(
      'npx',
      ['tsx', 'scripts/ops-user.ts', 'add', name, ...roles.flatMap((role) => ['--role', role]), '--password-stdin'],
      { input: `${password}\n`, env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR }, stdio: 'pipe' },
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
export async function newDesk(browser: Browser, name: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await deskSignIn(page, name);
  return { context, page };
}
