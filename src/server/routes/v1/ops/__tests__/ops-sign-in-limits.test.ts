import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { problem } from '../../../../../contract';
import type { AuditEntry } from '../../../../../contract/ops-changes';
import { buildApp } from '../../../../app';
import { DeskEngine } from '../../../../desk/engine';
import { createTestApp, testEngines, type TestApp } from '../../../../../testing/test-app';
import { createOpsAccount, OPS_PASSWORD, signIn } from '../../../../../testing/ops';

// The sign-in limit against a guesser who spells the name differently, and the audit trail against a guesser
// who floods it, through the real app on both stores. Each test has an app of its own (fresh limit counters)
// on the engine's store; the clock is the app's `ops.now`.

const SECOND = 1000;

describe.each(testEngines())('sign-in limits and their audit (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine });
    await createOpsAccount(t.app, 'victim', ['checker']);
    await createOpsAccount(t.app, 'other', ['maker']);
  });
  afterAll(async () => t.close());

  async function withApp<T>(
    limit: { perAccountMax: number; perAddressMax: number },
    use: (app: FastifyInstance, clock: { at: number }) => Promise<T>,
  ): Promise<T> {
    const clock = { at: Date.now() };
    const app = await buildApp({
      store: t.store,
      searchIndexBuild: 'inline',
      ops: { now: () => clock.at, signInLimit: { ...limit, windowMs: 60 * SECOND } },
    });
    try {
      return await use(app, clock);
    } finally {
      await app.close();
    }
  }

  const attempt = (app: FastifyInstance, name: string, password: string, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/v1/ops/session', payload: { name, password }, remoteAddress });

  /** The failed sign-ins audited since `from`, oldest first. */
  async function failedSince(from: string): Promise<AuditEntry[]> {
    const desk = new DeskEngine(t.store);
    const rows: AuditEntry[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await desk.audit({ action: 'sign-in-failed', from, pageNumber, pageSize: 500 });
      rows.push(...page.data);
      if (pageNumber >= page.pagination.totalPages) return rows.reverse();
    }
  }

  it('the per-account limit holds whatever the spelling of the name: case, white space, compatibility forms', async () => {
    await withApp({ perAccountMax: 3, perAddressMax: 1000 }, async (app) => {
      for (let i = 0; i < 3; i++) expect((await attempt(app, 'victim', `guess number ${i}`)).statusCode).toBe(401);
      expect((await attempt(app, 'victim', 'guess number 3')).statusCode).toBe(429);
      for (const spelling of [
        'VICTIM',
        ' victim',
        'victim\t',
        '\u00a0victim',
        'Victim',
        'ｖｉｃｔｉｍ',
        '\u2003victim\u3000',
      ]) {
        const response = await attempt(app, spelling, 'one more guess');
        expect(response.statusCode, JSON.stringify(spelling)).toBe(429);
        expect(problem.parse(response.json()).detail).toMatch(/Too many sign-in attempts/);
      }
      const right = await attempt(app, 'Victim', OPS_PASSWORD);
      expect(right.statusCode).toBe(429);
      expect(right.headers['set-cookie']).toBeUndefined();
      // Another account is not held back by it.
      expect((await attempt(app, 'other', OPS_PASSWORD)).statusCode).toBe(200);
    });
  });

  it('the account lookup takes the same canonical name as the limit', async () => {
    await withApp({ perAccountMax: 10, perAddressMax: 1000 }, async (app) => {
      for (const spelling of ['ｖｉｃｔｉｍ', ' VICTIM\u00a0', 'Victim\n']) {
        const session = await signIn(app, spelling);
        expect(session.response.json()).toMatchObject({ name: 'victim' });
      }
    });
  });

  it('600 refused sign-ins from one address are one audit row with their count, not 600 rows', async () => {
    const from = new Date().toISOString();
    await withApp({ perAccountMax: 10, perAddressMax: 50 }, async (app) => {
      const answers: number[] = [];
      // Ten guesses at each of sixty names: the address's budget (50) is spent first.
      for (let i = 0; i < 600; i++) {
        answers.push((await attempt(app, `guess-${Math.floor(i / 10)}`, 'not the password', '203.0.113.7')).statusCode);
      }
      expect(answers.filter((s) => s === 401)).toHaveLength(50);
      expect(answers.filter((s) => s === 429)).toHaveLength(550);
      // While the window is open the row is there at once.
      const during = await failedSince(from);
      expect(during).toHaveLength(51);
    });
    // The server stopped: the final count is written.
    const rows = await failedSince(from);
    expect(rows).toHaveLength(51);
    // Every failed attempt below the limit keeps its row.
    expect(rows.slice(0, 50).map((r) => r.detail?.reason)).toEqual(Array(50).fill('no-such-account'));
    const refused = rows[50];
    expect(refused).toMatchObject({ action: 'sign-in-failed', actor: 'guess-5', target: 'address:203.0.113.7' });
    expect(refused.detail).toMatchObject({
      reason: 'rate-limited',
      limit: 'address',
      count: 550,
      addresses: ['203.0.113.7'],
      names: [
        'guess-5',
        'guess-6',
        'guess-7',
        'guess-8',
        'guess-9',
        'guess-10',
        'guess-11',
        'guess-12',
        'guess-13',
        'guess-14',
      ],
    });
  });

  it('refused sign-ins at one account from many addresses are one row for the account; a new window, a new row', async () => {
    const from = new Date().toISOString();
    await withApp({ perAccountMax: 10, perAddressMax: 1000 }, async (app, clock) => {
      for (let i = 0; i < 10; i++)
        expect((await attempt(app, 'victim', 'wrong guess', `198.51.100.${i}`)).statusCode).toBe(401);
      for (let i = 10; i < 200; i++) {
        expect((await attempt(app, i % 2 ? 'VICTIM' : 'victim', 'wrong guess', `198.51.100.${i}`)).statusCode).toBe(
          429,
        );
      }
      // The limit's window is over on this clock: the next refusal opens a new window and a new row.
      clock.at += 61 * SECOND;
      expect((await attempt(app, 'victim', 'wrong guess', '198.51.100.250')).statusCode).toBe(429);
    });
    const rows = (await failedSince(from)).filter((r) => r.detail?.reason === 'rate-limited');
    expect(rows.map((r) => [r.actor, r.target, r.detail?.limit, r.detail?.count])).toEqual([
      ['victim', 'account:victim', 'account', 190],
      ['victim', 'account:victim', 'account', 1],
    ]);
    expect(rows[0].detail?.addresses).toEqual(Array.from({ length: 10 }, (_, i) => `198.51.100.${i + 10}`));
  });
});
