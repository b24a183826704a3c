import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, LOOKUP_HEADERS, type TestApp } from '../../../../testing/test-app';

// Reference lookups carry an ETag of the data version; If-None-Match with it answers 304 without a body,
// and a new data set gives a new tag.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const REFERENCE_LOOKUPS: [string, Record<string, string>][] = [
  ['/v1/receiving-countries', {}],
  ['/v1/types', { filter: 'delivery-modes' }],
  ['/v1/states', { receivingCountry: 'BD' }],
  ['/v1/cities', { receivingCountry: 'BD', state: 'C' }],
];

describe.each(REFERENCE_LOOKUPS)('%s', (path, query) => {
  it('answers with an ETag and no-cache, and 304 without a body for If-None-Match with that tag', async () => {
    const first = await t.get(path, query);
    expect(first.statusCode).toBe(200);
    expect(first.json().data.length).toBeGreaterThan(0);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await t.get(path, query, { ...LOOKUP_HEADERS, 'if-none-match': ifNoneMatch });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
    }
    const stale = await t.get(path, query, { ...LOOKUP_HEADERS, 'if-none-match': '"not-the-current-tag"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);
  });

  it('still requires the agent correspondent id before a 304', async () => {
    const etag = (await t.get(path, query)).headers.etag as string;
    const anonymous = await t.get(path, query, { 'if-none-match': etag });
    expect(anonymous.statusCode).toBe(400);
  });
});

it('gives a new tag when a new data set is loaded, and the old tag then gets the full answer', async () => {
  const before = await t.get('/v1/receiving-countries');
  const etag = before.headers.etag as string;
  const dataSet = (await t.store.readDataSet()).dataSet;
  await t.store.replaceDataSet({ ...dataSet, countries: dataSet.countries.filter((c) => c.code !== 'KE') });
  await t.app.reference.refresh();
  const after = await t.get('/v1/receiving-countries', {}, { ...LOOKUP_HEADERS, 'if-none-match': etag });
  expect(after.statusCode).toBe(200);
  expect(after.headers.etag).not.toBe(etag);
  expect(after.json().data.map((c: { code: string }) => c.code)).not.toContain('KE');
  expect(before.json().data.map((c: { code: string }) => c.code)).toContain('KE');
});
