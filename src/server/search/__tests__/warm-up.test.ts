import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, LOOKUP_HEADERS, testEngines, type TestApp } from '../../../testing/test-app';
import { StoreUnavailableError } from '../../store/store';
import { buildFromStore } from '../read-data-set';
import { SearchService } from '../search-service';
import { SearchIndex } from '../search-index';

// A new search index answers a few hundred searches through the routes before it serves (the
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

  it('a new index starts with the matches of the terms its predecessor remembered, found by its worker', async () => {
    await warmed.app.searchIndex.whenReady();
    const before = warmed.app.searchIndex.index();
    const terms = before.rememberedTerms();
    expect(Object.values(terms).flat().length).toBeGreaterThan(20);

    // A new data version with the same rows (as a publish that changes nothing), built by the worker.
    const { dataSet } = await warmed.store.readDataSet();
    await warmed.store.replaceDataSet(dataSet);
    await warmed.app.searchIndex.catchUp();
    const after = warmed.app.searchIndex.index();
    // (not `expect(after).not.toBe(before)`: vitest compares the two indexes deeply to word its message.)
    expect(after === before).toBe(false);
    // (and the warm-up's own terms, found by the worker too)
    expect(warmed.app.searchIndex.lastBuild?.rememberedTerms).toBeGreaterThanOrEqual(
      Object.values(terms).flat().length,
    );

    // Every term is remembered by the new index as it starts serving, in the same order,
    const now = after.rememberedTerms();
    for (const [name, list] of Object.entries(terms))
      expect(now[name as keyof typeof now]!.slice(0, list.length), name).toEqual(list);
    // and its matches are what an index built here from the store finds itself.
    const fresh = new SearchIndex(await buildFromStore(warmed.store)).matchesOf(terms);
    const remembered = after.matchesOf(terms);
    const differing: string[] = [];
    let ids = 0;
    for (const [name, list] of Object.entries(remembered)) {
      const own = fresh[name as keyof typeof fresh]!;
      list.forEach(([term, found], i) => {
        ids += found.length;
        if (own[i][0] !== term || Buffer.compare(Buffer.from(found.buffer), Buffer.from(own[i][1].buffer)) !== 0)
          differing.push(`${name} ${term}`);
      });
    }
    expect(differing).toEqual([]);
    expect(ids).toBeGreaterThan(1000);
    // And it answers as the index that never warmed up.
    for (const url of after.warmUpPaths(40)) {
      const [a, b] = await Promise.all([warmed, cold].map((t) => t.app.inject({ url, headers: LOOKUP_HEADERS })));
      expect(a.body, url).toBe(b.body);
    }
  });

  it("while the first index warms up, only the warm-up's own requests are answered from it; others get 503", async () => {
    const seen: { own: unknown; other: unknown; none: unknown }[] = [];
    const attempt = (get: () => SearchIndex) => {
      try {
        return get();
      } catch (error) {
        return error;
      }
    };
    const service: SearchService = new SearchService({
      store: cold.store,
      build: 'inline',
      isWarmUp: (request) => request.headers['x-warm-up'] === 'token',
      warmUp: async (index) => {
        seen.push({
          own: attempt(() => service.index({ headers: { 'x-warm-up': 'token' } })) === index,
          other: attempt(() => service.index({ headers: { 'x-warm-up': 'guess' } })),
          none: attempt(() => service.index()),
        });
      },
    });
    await service.rebuild();
    expect(seen).toHaveLength(1);
    expect(seen[0].own).toBe(true);
    expect(seen[0].other).toBeInstanceOf(StoreUnavailableError);
    expect(seen[0].none).toBeInstanceOf(StoreUnavailableError);
    // Once it serves, every request gets it, and the warm-up's marker no longer matters.
    const served = service.index();
    expect(service.index({ headers: { 'x-warm-up': 'token' } })).toBe(served);
    await service.close();
  });
});
