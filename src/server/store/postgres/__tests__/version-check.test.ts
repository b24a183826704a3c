import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../app';
import { PgStore } from '../pg-store';
import { createTestPostgresDatabase, LOOKUP_HEADERS, testEngines } from '../../../../testing/test-app';

// Once a second a lookup finds the store's data version due for a look. That look is a query, and a
// database busy with an import, or a backend waiting for a CPU, can take long over it: the lookup must not wait
// for it. Here the version row is locked by another session, so the look waits as long as the lock is held
// (the statement timeout is a minute); the lookups still answer, from the version they hold.

const BRANCHES =
  '/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD&bankName=sonali';
const VERSION_QUERY = 'SELECT version::text FROM data_version';

describe.skipIf(!testEngines().includes('postgres'))('PostgreSQL: the data version check', () => {
  let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
  let store: PgStore;
  let app: FastifyInstance;
  let blocker: pg.Client;

  beforeAll(async () => {
    database = await createTestPostgresDatabase();
    store = PgStore.open({ connectionString: database.url, poolSize: 4, statementTimeoutMs: 60_000 });
    app = await buildApp({ store, searchIndexBuild: 'inline' });
    blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
  });

  afterAll(async () => {
    await blocker?.query('ROLLBACK').catch(() => {});
    await blocker?.end();
    await app?.close();
    await store?.close();
    await database?.drop();
  });

  const get = (path: string) => app.inject({ method: 'GET', url: path, headers: LOOKUP_HEADERS });
  /** Sessions of this database waiting for a lock in the version query. */
  const waitingLooks = async () =>
    (
      await blocker.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query = $1`,
        [VERSION_QUERY],
      )
    ).rows[0].n;

  it('does not hold the lookup that starts it: the answer comes from memory while the look still waits', async () => {
    const before = await get(BRANCHES);
    expect(before.statusCode).toBe(200);

    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE data_version IN ACCESS EXCLUSIVE MODE');
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the once-a-second look
    // This lookup finds the look due and starts it; awaited, it would wait here for the lock (a minute).
    const during = await Promise.all([get(BRANCHES), get(BRANCHES)]);
    for (const response of during) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-data-version']).toBe(before.headers['x-data-version']);
      expect(response.json()).toEqual(before.json());
    }
    // The look was started and is still waiting for the lock: the answers above did not wait for it. One look
    // at a time, however many lookups find it due.
    await expect.poll(waitingLooks, { timeout: 5000 }).toBe(1);
    expect((await get(BRANCHES)).statusCode).toBe(200);
    expect(await waitingLooks()).toBe(1);

    // Once the lock goes, the look ends and the next ones run as before.
    await blocker.query('ROLLBACK');
    await expect.poll(waitingLooks, { timeout: 5000 }).toBe(0);
    expect((await get(BRANCHES)).statusCode).toBe(200);
  });
});
