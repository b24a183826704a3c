import { chooseCountry, clearLikeAPerson, expect, expectAccessible, test, typeLikeAPerson } from './fixtures';

test('asks for the agent correspondent id, checks its pattern, keeps it and lets the teller change it', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page);

  const idField = page.getByLabel('Agent correspondent id');
  await typeLikeAPerson(idField, ['ab12']);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(
    page.getByText(/must be two upper-case letters followed by four upper-case letters or digits/),
  ).toBeVisible();

  await clearLikeAPerson(idField);
  await typeLikeAPerson(idField, ['AB12CD']);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: /Agent AB12CD/ })).toBeVisible();
  await expect(page).toHaveURL(/\/agents$/);

  // The footer shows which data set answers (signed-in requests carry x-fapi-financial-id): each file the
  // API names, with its rows. Which files those are depends on what the desk's tests published before.
  const dataStatus = page.getByRole('list', { name: 'Data status' });
  const served = await page.request.get('/v1/data-status', { headers: { 'x-fapi-financial-id': 'AB12CD' } });
  const sources = ((await served.json()) as { data: { kind: string; file: string; rows: number }[] }).data;
  expect(sources.map((s) => s.kind).sort()).toEqual(expect.arrayContaining(['agents', 'branches', 'partners']));
  for (const source of sources) {
    await expect(dataStatus).toContainText(source.file);
    await expect(dataStatus).toContainText(`${source.rows.toLocaleString('en-US')} rows`);
  }

  // Every lookup carries the id as x-fapi-financial-id and a fresh x-correlation-id.
  const request = page.waitForRequest((r) => r.url().includes('/v1/states'));
  await chooseCountry(page, 'bd', /Bangladesh/);
  const headers = (await request).headers();
  expect(headers['x-fapi-financial-id']).toBe('AB12CD');
  expect(headers['x-correlation-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

  // Kept across a reload, changeable from the app bar.
  await page.reload();
  await page.getByRole('button', { name: /Agent AB12CD/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Agent correspondent id' });
  await clearLikeAPerson(dialog.getByLabel('Agent correspondent id'));
  await typeLikeAPerson(dialog.getByLabel('Agent correspondent id'), ['XY34ZZ']);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: /Agent XY34ZZ/ })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('rpl.correspondentId'))).toBe('XY34ZZ');
});

test('the built portal has no inline script, so a strict script-src CSP holds', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  expect(scripts.length).toBeGreaterThan(0);
  for (const [, attributes, body] of scripts) {
    expect(attributes).toMatch(/src="\/assets\/[^"]+\.js"/);
    expect(body.trim()).toBe('');
  }
  // Deep links a browser opens (it asks for HTML) get the same page (SPA fallback); API paths, asset paths and
  // requests that do not ask for HTML do not.
  const page = { headers: { accept: 'text/html,application/xhtml+xml' } };
  expect(await (await request.get('/branches?receivingCountry=BD&deliveryMode=04', page)).text()).toBe(html);
  expect((await request.get('/v1/nothing-here', page)).status()).toBe(404);
  expect((await request.get('/assets/nothing-here.js.map', page)).status()).toBe(404);
  expect(
    (
      await request.get('/branches?receivingCountry=BD&deliveryMode=04', { headers: { accept: 'application/json' } })
    ).status(),
  ).toBe(404);
});
