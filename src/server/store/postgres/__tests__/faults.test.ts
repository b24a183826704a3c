import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../app';
import { PgStore } from '../pg-store';
import { TcpProxy } from '../../../../testing/tcp-proxy';
import { createTestPostgresDatabase, LOOKUP_HEADERS, testEngines } from '../../../../testing/test-app';

// The database goes away mid-run (a TCP proxy we cut, so the shared server keeps running) and comes back;
// a query runs past statement_timeout. Every request is answered — 503 problem+json with Retry-After while
// the database cannot answer, 200 again once it can — and the process neither hangs nor crashes.

// Read from the database on every request (no cache in front of it).
const DATA_STATUS = '/v1/data-status';
const BRANCHES =
  '/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD&bankName=sonali';

describe.skipIf(!testEngines().includes('postgres'))('PostgreSQL faults', () => {
  let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
  let proxy: TcpProxy;
  let store: PgStore;
  let app: FastifyInstance;
  const lostConnections: string[] = [];

  beforeAll(async () => {
    database = await createTestPostgresDatabase();
    const target = new URL(database.url);
    proxy = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    store = PgStore.open({
      connectionString: viaProxy.toString(),
      poolSize: 4,
      statementTimeoutMs: 500,
      connectTimeoutMs: 500,
      log: (message) => lostConnections.push(message),
    });
    app = await buildApp({ store, searchIndexBuild: 'inline' });
  });

  afterAll(async () => {
    await app?.close();
    await store?.close();
    await proxy?.close();
    await database?.drop();
  });

  const get = (path: string) => app.inject({ method: 'GET', url: path, headers: LOOKUP_HEADERS });

  const expectUnavailable = (response: Awaited<ReturnType<typeof get>>) => {
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.json()).toMatchObject({ type: 'urn:problem:unavailable', status: 503, errors: [] });
    // 5xx bodies name no internals.
    expect(response.body).not.toMatch(/ECONN|terminated|postgres|timeout exceeded/i);
  };

  it('answers 503 with Retry-After for what reads the database while it is down, searches from memory, and serves again once it is back', async () => {
    const before = await get(BRANCHES);
    expect(before.statusCode).toBe(200);
    expect((await get(DATA_STATUS)).statusCode).toBe(200);

    await proxy.cut();
    // Several lookups in parallel, all answered (none hangs: the connect timeout bounds each). The searches
    // come from the in-memory index of the data version it holds; the lookups that read the store say 503.
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the once-a-second data version check
    const during = await Promise.all([get(BRANCHES), get(BRANCHES), get(DATA_STATUS), get(DATA_STATUS)]);
    for (const response of during.slice(0, 2)) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-data-version']).toBe(before.headers['x-data-version']);
      expect(response.json()).toEqual(before.json());
    }
    for (const response of during.slice(2)) expectUnavailable(response);

    await proxy.restore();
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await get(DATA_STATUS)).statusCode;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });

  it('drops connections cut while idle without crashing, and reconnects', async () => {
    expect((await get(DATA_STATUS)).statusCode).toBe(200);
    const before = lostConnections.length;
    await proxy.cut();
    await proxy.restore();
    // The pool noticed its idle connections broke (the 'error' event was handled, not thrown)…
    await expect.poll(() => lostConnections.length, { timeout: 5000 }).toBeGreaterThan(before);
    // …and the next lookup opens a fresh one.
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await get(DATA_STATUS)).statusCode;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });

  it('answers 503 when a query runs past statement_timeout', async () => {
    // Another session holds the data_sources table, so the lookup waits past its 500 ms statement timeout.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE data_sources IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      expectUnavailable(await get(DATA_STATUS));
      expect(Date.now() - started).toBeLessThan(10_000);
      await blocker.query('ROLLBACK');
      expect((await get(DATA_STATUS)).statusCode).toBe(200);
    } finally {
      await blocker.end();
    }
  });
  it('loads a data set past the lookup statement timeout (loads are exempt from it)', async () => {
    const direct = PgStore.open({ connectionString: database.url });
    try {
      const dataSet = (await direct.readDataSet()).dataSet;
      // This store cancels lookups after 500 ms; indexing the branches alone takes longer than that.
      const started = Date.now();
      await store.replaceDataSet(dataSet);
      expect(Date.now() - started).toBeGreaterThan(500);
      expect((await get(BRANCHES)).statusCode).toBe(200);
    } finally {
      await direct.close();
    }
  });
});
