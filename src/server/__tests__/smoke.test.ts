import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

it('serves receiving countries from the seeded store', async () => {
  const res = await t.get('/v1/receiving-countries');
  expect(res.statusCode).toBe(200);
  expect(res.json().data.map((c: { code: string }) => c.code)).toContain('BD');
});
