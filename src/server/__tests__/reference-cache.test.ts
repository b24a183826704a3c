import { afterAll, beforeAll, expect, it } from 'vitest';
import { ReferenceCache } from '../reference-cache';
import { createTestApp, type TestApp } from '../../testing/test-app';

// Issue 12, item 7: an answer built for one data set, finished after a refresh to the next one, must not be
// served for the whole next data set.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it('does not keep an answer of the previous data set that was still being built during a refresh', async () => {
  const cache = new ReferenceCache(t.store);
  await cache.refresh();
  let finish!: () => void;
  const slowRead = new Promise<void>((resolve) => (finish = resolve));
  // The cities of a state, read from the store of the old data set, slowly.
  const old = cache.body('cities:IN:MH', async () => {
    const cities = await t.store.cities('IN', 'MH');
    await slowRead;
    return { data: cities };
  });
  // Meanwhile a new data set without Maharashtra's cities is committed, and the cache refreshes.
  const { dataSet, version } = await t.store.readDataSet();
  await t.store.replaceDataSet(
    { ...dataSet, cities: dataSet.cities.filter((c) => !(c.country === 'IN' && c.state === 'MH')) },
    { expectedVersion: version },
  );
  await cache.refresh();
  finish();
  expect(JSON.parse((await old).json.toString()).data.length).toBeGreaterThan(0);

  const fresh = await cache.body('cities:IN:MH', async () => ({ data: await t.store.cities('IN', 'MH') }));
  expect(JSON.parse(fresh.json.toString()).data).toEqual([]);
});
