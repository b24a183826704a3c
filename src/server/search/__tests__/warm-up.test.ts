import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, LOOKUP_HEADERS, testEngines, type TestApp } from '../../../testing/test-app';

// Issue #26: a new search index answers a few hundred searches through the routes before it serves (the
// first seconds after /readyz, and after a swap). Warming must change no answer: the index served right after
// ready (warmed, its per-term memo filled) answers exactly as an index that never warmed up.

describe.each(testEngines())('search index warm-up (%s)', (engine) => {
  let warmed: TestApp;
  let cold: TestApp;

  beforeAll(async () => {
    // As the server runs it: built in a worker thread, warmed up before it serves.
    warmed = await createTestApp({ engine, searchIndexBuild: 'worker' });
    // Built inline: no warm-up at all.
    cold = await createTestApp({ engine });
  });
  afterAll(async () => {
    await warmed?.close();
    await cold?.close();
  });

  it('warms the index before /readyz says ready, then answers every search as an unwarmed index does', async () => {
    await warmed.app.searchIndex.whenReady();
    // The warm-up ran before the index was served.
    expect(warmed.app.searchIndex.lastWarmUpMs).not.toBeNull();
    expect((await warmed.app.inject({ url: '/readyz' })).statusCode).toBe(200);

    const index = warmed.app.searchIndex.index();
    const paths = index.warmUpPaths(80);
    // The warm-up covers branch searches, code lookups and agent searches.
    expect(paths.filter((p) => p.startsWith('/v1/banks/branches?')).length).toBeGreaterThan(20);
    expect(paths.filter((p) => p.startsWith('/v1/agents?')).length).toBeGreaterThan(20);
    expect(paths.some((p) => p.startsWith('/v1/codes/'))).toBe(true);

    let nonEmpty = 0;
    for (const url of paths) {
      const [a, b] = await Promise.all([warmed, cold].map((t) => t.app.inject({ url, headers: LOOKUP_HEADERS })));
      expect(a.statusCode, url).toBe(b.statusCode);
      expect(a.statusCode, url).toBe(200);
      expect(a.body, url).toBe(b.body);
      if (/"data":\[\{/.test(a.body)) nonEmpty++;
    }
    // The searches find rows (words of real rows, with their own head office), so the bodies compared hold data.
    expect(nonEmpty).toBeGreaterThan(paths.length / 2);
  });
});
