import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApp } from '../../../app';
import { connectRedis } from '../../../redis';
import { PgStore } from '../pg-store';
import { createTestPostgresDatabase, LOOKUP_HEADERS, testEngines } from '../../../../testing/test-app';

// Two instances of the app, as behind a load balancer: each its own process state and PostgreSQL pool, one
// PostgreSQL database and one Redis between them. They answer alike, and a correspondent's rate limit is one
// budget across both.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 10;

describe.skipIf(!testEngines().includes('postgres'))('two instances on one PostgreSQL and one Redis', () => {
  const keyPrefix = `rpl-test-${randomBytes(4).toString('hex')}:`;
  let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
  const stores: PgStore[] = [];
  const redisClients: Redis[] = [];
  const apps: FastifyInstance[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    database = await createTestPostgresDatabase();
    for (let i = 0; i < 2; i++) {
      const store = PgStore.open({ connectionString: database.url, poolSize: 4 });
      const redis = connectRedis(REDIS_URL);
      // Each instance builds its own search index in a worker thread, as a deployed one does. Every request
      // comes from 127.0.0.1: the per-address and global ceilings are set out of the way.
      const app = await buildApp({
        store,
        rateLimit: {
          max: LIMIT,
          timeWindowMs: 60_000,
          perAddressMax: 1_000_000,
          globalMax: 1_000_000,
          redis,
          keyPrefix,
        },
      });
      await app.searchIndex.whenReady();
      urls.push(await app.listen({ host: '127.0.0.1', port: 0 }));
      stores.push(store);
      redisClients.push(redis.redis);
      apps.push(app);
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    // This run's counters only, found by its own prefix.
    const redis = redisClients[0];
    if (redis) {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length) await redis.del(...keys);
    }
    for (const redis of redisClients) await redis.quit();
    await database?.drop();
  });

  const get = (instance: number, path: string, financialId: string) =>
    fetch(`${urls[instance]}${path}`, { headers: { ...LOOKUP_HEADERS, 'x-fapi-financial-id': financialId } });

  it('answers the same from both instances', async () => {
    const paths = [
      '/v1/receiving-countries',
      '/v1/payout-networks?receivingCountry=BD&deliveryMode=04',
      '/v1/agents?receivingCountry=MX&deliveryMode=01&search=OXXO&pageSize=20&pageNumber=3',
      '/v1/agents?receivingCountry=IN&deliveryMode=04&search=STATE%20BANK%20OF%20INDIA%2C%20MUMBAI',
      '/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD&district=dhaka&bankName=sonali',
    ];
    for (const path of paths) {
      const [a, b] = await Promise.all([get(0, path, 'SA0001'), get(1, path, 'SA0001')]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      const [bodyA, bodyB] = await Promise.all([a.json(), b.json()]);
      expect(bodyB).toEqual(bodyA);
      expect(JSON.stringify(bodyA)).not.toBe('{"data":[]}');
    }
  });

  it('shares one correspondent rate limit across the instances', async () => {
    const financialId = 'RL0001';
    const statuses: number[] = [];
    // Alternate instances, as a round-robin load balancer would: the budget is spent on both together.
    for (let i = 0; i < LIMIT; i++) statuses.push((await get(i % 2, '/v1/receiving-countries', financialId)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    for (const instance of [0, 1]) {
      const limited = await get(instance, '/v1/receiving-countries', financialId);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await limited.json()).type).toBe('urn:problem:too-many-requests');
    }
    // Another correspondent is unaffected on either instance.
    expect((await get(1, '/v1/receiving-countries', 'RL0002')).status).toBe(200);
    // The counter is in Redis, under this run's prefix.
    expect(await redisClients[0].keys(`${keyPrefix}*RL0001*`)).toHaveLength(1);
  });

  it('serves a new data set from every instance once one of them loads it', async () => {
    const dataSet = (await stores[0].readDataSet()).dataSet;
    const countries = dataSet.countries.map((c) => (c.code === 'MX' ? { ...c, name: 'Mexico (new data set)' } : c));
    // Warm both reference caches on the old data set first.
    for (const instance of [0, 1]) expect((await get(instance, '/v1/receiving-countries', 'DV0001')).status).toBe(200);
    await stores[0].replaceDataSet({ ...dataSet, countries });
    // Each instance's reference cache notices the new data version within its check interval (1 s).
    for (const instance of [0, 1]) {
      await expect
        .poll(
          async () => {
            const body = await (await get(instance, '/v1/receiving-countries', 'DV0001')).json();
            return body.data.find((c: { code: string }) => c.code === 'MX')?.name;
          },
          { timeout: 5000, interval: 200 },
        )
        .toBe('Mexico (new data set)');
    }
  });
  it('keeps answering from the old data set or the new one while another instance replaces it, never a mix, then picks up the new one', async () => {
    const path =
      '/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD&pageSize=1';
    let request = 0;
    const totalNow = async () => {
      // A fresh correspondent id per request keeps these many lookups under the rate limit.
      const response = await get(1, path, `AT${String(request++).padStart(4, '0')}`);
      return {
        status: response.status,
        version: response.headers.get('x-data-version'),
        total: (await response.json()).pagination?.totalItems as number,
      };
    };
    const first = await totalNow();
    const before = first.total;
    const dataSet = (await stores[0].readDataSet()).dataSet;
    // The new data set lacks one bank's branches, so its total differs from the old one.
    const branches = dataSet.branches.filter((b) => !(b.country === 'BD' && b.bankCode === '020'));
    const after = before - (dataSet.branches.length - branches.length);
    expect(after).toBeLessThan(before);

    let loaded = false;
    const replacing = stores[0].replaceDataSet({ ...dataSet, branches }).finally(() => {
      loaded = true;
    });
    const seen: { status: number; version: string | null; total: number }[] = [];
    for (let i = 0; i < 2000 && !loaded; i++) {
      seen.push(await totalNow());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await replacing;
    // Instance 1 notices the new data version (within a second), builds its index off the event loop and
    // swaps it in, answering from the old one meanwhile.
    for (let i = 0; i < 600 && seen.at(-1)!.total !== after; i++) {
      seen.push(await totalNow());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.filter((s) => s.status !== 200)).toEqual([]);
    expect(seen.filter((s) => s.total !== before && s.total !== after)).toEqual([]);
    expect(seen.at(-1)!.total).toBe(after);
    // The header names the data version each answer came from: one total per version, and a new version.
    const totalOf = new Map<string | null, Set<number>>();
    for (const s of seen) totalOf.set(s.version, (totalOf.get(s.version) ?? new Set()).add(s.total));
    for (const totals of totalOf.values()) expect(totals.size).toBe(1);
    expect(seen.at(-1)!.version).not.toBe(first.version);
  });
});
