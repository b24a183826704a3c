import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../../contract';
import { opsAccount, opsSession } from '../../../../../contract/ops-auth';
import { hashApiKey } from '../../../../auth/credentials';
import { buildApp } from '../../../../app';
import { PgStore } from '../../../../store/postgres/pg-store';
import { verifyPassword } from '../../../../desk/passwords';
import { createTestApp, LOOKUP_HEADERS, testEngines, type TestApp } from '../../../../../testing/test-app';
import { createOpsAccount, OPS_PASSWORD, sessionCookieOf, signIn } from '../../../../../testing/ops';

// The operations desk's sign-in, sessions, CSRF and roles, through the real app on both stores. The clock is
// the app's `ops.now`, moved by the tests: sessions expire without waiting.

const MINUTE = 60_000;

describe.each(testEngines())('ops accounts and sessions (%s)', (engine) => {
  let t: TestApp;
  let clock = Date.parse('2026-01-05T09:00:00Z');
  const opsKey = 'ops-key-0123456789abcdef0123456789abcdef';
  const lookupKey = 'lookup-key-0123456789abcdef0123456789abcdef';
  beforeAll(async () => {
    t = await createTestApp({
      engine,
      ops: {
        now: () => clock,
        signInLimit: { perAccountMax: 1000, perAddressMax: 1000, windowMs: 60_000 },
        apiKeys: new Map([
          [hashApiKey(opsKey), { holder: 'nightly loader', roles: ['maker'] }],
          [hashApiKey(lookupKey), { holder: 'teller bank', roles: [] }],
        ]),
      },
    });
    await createOpsAccount(t.app, 'alice', ['maker']);
    await createOpsAccount(t.app, 'carol', ['checker']);
    await createOpsAccount(t.app, 'root', ['admin']);
    await createOpsAccount(t.app, 'limited', ['maker']);
  });
  afterAll(async () => t.close());

  const expectProblem = (
    response: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
    status: number,
  ) => {
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    return problem.parse(response.json());
  };

  it('stores a scrypt hash with its own salt, never the password', async () => {
    const alice = await t.app.opsAccounts.account('alice');
    const carol = await t.app.opsAccounts.account('carol');
    expect(alice!.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(alice!.passwordHash).not.toContain(OPS_PASSWORD);
    // Same password, different salts: different hashes.
    expect(alice!.passwordHash.split('$')[4]).not.toBe(carol!.passwordHash.split('$')[4]);
    expect(await verifyPassword(OPS_PASSWORD, alice!.passwordHash)).toBe(true);
    expect(await verifyPassword(`${OPS_PASSWORD}x`, alice!.passwordHash)).toBe(false);
  });

  it('401 without a session, 403 for a teller id', async () => {
    for (const url of ['/v1/ops/session', '/v1/ops/accounts']) {
      const none = await t.app.inject({ method: 'GET', url });
      expect(expectProblem(none, 401).type).toBe('urn:problem:unauthorized');
      const teller = await t.app.inject({ method: 'GET', url, headers: LOOKUP_HEADERS });
      expect(expectProblem(teller, 403).detail).toMatch(/correspondent id does not give access/);
    }
    // The lookups are still served with the teller id.
    expect((await t.get('/v1/receiving-countries')).statusCode).toBe(200);
  });

  it('signs in with an HttpOnly, SameSite=Strict cookie and a CSRF token; GET /session says who', async () => {
    const { response, cookie, csrfToken } = await signIn(t.app, 'alice');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^rpl-ops-session=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(setCookie).not.toMatch(/Secure/);
    const body = opsSession.parse(response.json());
    expect(body).toMatchObject({ name: 'alice', roles: ['maker'], via: 'session', idleTimeoutSeconds: 1800 });
    expect(body.expiresAt).toBe(new Date(clock + 12 * 60 * MINUTE).toISOString());
    expect(JSON.stringify(body)).not.toContain(cookie.split('=')[1]);
    const me = await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ name: 'alice', csrfToken });
    expect(me.headers['cache-control']).toBe('no-store');
    // The database holds the token's SHA-256, not the token.
    const token = cookie.split('=')[1];
    expect(await t.app.opsAccounts.session(token)).toBeNull();
  });

  it('the cookie is Secure and __Host- named over TLS (behind a proxy that says so)', async () => {
    const tls = await buildApp({ store: t.store, searchIndexBuild: 'inline', trustProxy: true });
    try {
      const response = await tls.inject({
        method: 'POST',
        url: '/v1/ops/session',
        payload: { name: 'carol', password: OPS_PASSWORD },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.statusCode).toBe(200);
      expect(String(response.headers['set-cookie'])).toMatch(
        /^__Host-rpl-ops-session=[\w-]{43}; .*Path=\/; HttpOnly; Secure; SameSite=Strict$/,
      );
    } finally {
      await tls.close();
    }
  });

  it('a wrong password, an unknown name and a disabled account get the same 401', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/session',
      payload: { name: 'carol', password: 'not the password' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/session',
      payload: { name: 'nobody', password: 'not the password' },
    });
    expect(expectProblem(wrong, 401).detail).toBe(expectProblem(unknown, 401).detail);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const bad = await t.app.inject({ method: 'POST', url: '/v1/ops/session', payload: { name: 'carol' } });
    expect(expectProblem(bad, 400).errors).toEqual([expect.objectContaining({ name: 'password', in: 'body' })]);
  });

  it('session fixation: a cookie set before sign-in is never the session after it', async () => {
    // An attacker plants a token of their choosing, and also one of their own live sessions.
    const planted = 'A'.repeat(43);
    const attacker = await signIn(t.app, 'carol');
    for (const before of [`rpl-ops-session=${planted}`, attacker.cookie]) {
      const victim = await signIn(t.app, 'alice', OPS_PASSWORD, { cookie: before });
      expect(victim.cookie).not.toBe(before);
      expect(victim.cookie.split('=')[1]).not.toBe(planted);
      const withOld = await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: before } });
      expectProblem(withOld, 401);
      const withNew = await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: victim.cookie } });
      expect(withNew.json()).toMatchObject({ name: 'alice' });
    }
  });

  it('CSRF: a state-changing call needs the session token and a same-origin request', async () => {
    const admin = await signIn(t.app, 'root');
    const create = (headers: Record<string, string>, name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/ops/accounts',
        headers,
        payload: { name, roles: ['maker'], password: OPS_PASSWORD },
      });
    const missing = await create({ cookie: admin.cookie }, 'csrf1');
    expect(expectProblem(missing, 403).errors).toEqual([{ name: 'x-csrf-token', in: 'header', message: 'is missing' }]);
    const wrong = await create({ cookie: admin.cookie, 'x-csrf-token': 'B'.repeat(43) }, 'csrf1');
    expect(expectProblem(wrong, 403).errors[0].message).toBe('is not this session’s token');
    // Another session's token is wrong too.
    const other = await signIn(t.app, 'carol');
    expectProblem(await create({ cookie: admin.cookie, 'x-csrf-token': other.csrfToken }, 'csrf1'), 403);
    const crossOrigin = await create(
      { ...admin.headers, origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
      'csrf1',
    );
    expect(expectProblem(crossOrigin, 403).errors[0].name).toBe('origin');
    const crossSite = await create({ ...admin.headers, 'sec-fetch-site': 'cross-site' }, 'csrf1');
    expect(expectProblem(crossSite, 403).errors[0].name).toBe('sec-fetch-site');
    // A cross-site sign-in is refused too (login CSRF).
    const crossSignIn = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/session',
      headers: { origin: 'https://evil.example' },
      payload: { name: 'alice', password: OPS_PASSWORD },
    });
    expectProblem(crossSignIn, 403);
    expect(await t.app.opsAccounts.account('csrf1')).toBeNull();
    const ok = await create(admin.headers, 'csrf1');
    expect(ok.statusCode).toBe(201);
    expect(opsAccount.parse(ok.json())).toMatchObject({ name: 'csrf1', roles: ['maker'], disabled: false });
  });

  it('roles: only an admin manages accounts; admins cannot lock themselves out', async () => {
    const maker = await signIn(t.app, 'alice');
    expectProblem(
      await t.app.inject({ method: 'GET', url: '/v1/ops/accounts', headers: { cookie: maker.cookie } }),
      403,
    );
    const admin = await signIn(t.app, 'root');
    const list = await t.app.inject({ method: 'GET', url: '/v1/ops/accounts', headers: { cookie: admin.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toMatch(/scrypt|password/i);
    expect((list.json() as { data: { name: string }[] }).data.map((a) => a.name)).toEqual(
      expect.arrayContaining(['alice', 'carol', 'root']),
    );
    const self = await t.app.inject({
      method: 'PATCH',
      url: '/v1/ops/accounts/root',
      headers: admin.headers,
      payload: { disabled: true },
    });
    expectProblem(self, 409);
    const missing = await t.app.inject({
      method: 'PATCH',
      url: '/v1/ops/accounts/ghost',
      headers: admin.headers,
      payload: { disabled: true },
    });
    expectProblem(missing, 404);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/accounts',
      headers: admin.headers,
      payload: { name: 'alice', roles: ['maker'], password: OPS_PASSWORD },
    });
    expectProblem(taken, 409);
    const short = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/accounts',
      headers: admin.headers,
      payload: { name: 'Bob Smith', roles: ['boss'], password: 'short' },
    });
    expect(
      expectProblem(short, 400)
        .errors.map((e) => e.name)
        .sort(),
    ).toEqual(['name', 'password', 'roles.0']);
  });

  it('disabling an account or resetting its password ends its sessions', async () => {
    await createOpsAccount(t.app, 'dave', ['checker']);
    const dave = await signIn(t.app, 'dave');
    const admin = await signIn(t.app, 'root');
    const disable = await t.app.inject({
      method: 'PATCH',
      url: '/v1/ops/accounts/dave',
      headers: admin.headers,
      payload: { disabled: true },
    });
    expect(disable.json()).toMatchObject({ name: 'dave', disabled: true });
    expectProblem(await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: dave.cookie } }), 401);
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/v1/ops/session', payload: { name: 'dave', password: OPS_PASSWORD } }),
      401,
    );
    await t.app.inject({
      method: 'PATCH',
      url: '/v1/ops/accounts/dave',
      headers: admin.headers,
      payload: { disabled: false },
    });
    const again = await signIn(t.app, 'dave');
    const reset = await t.app.inject({
      method: 'PATCH',
      url: '/v1/ops/accounts/dave',
      headers: admin.headers,
      payload: { password: 'a brand new pass phrase' },
    });
    expect(reset.statusCode).toBe(200);
    expectProblem(
      await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: again.cookie } }),
      401,
    );
    await signIn(t.app, 'dave', 'a brand new pass phrase');
  });

  it('sign-out ends the session on the server', async () => {
    const alice = await signIn(t.app, 'alice');
    const withoutToken = await t.app.inject({
      method: 'DELETE',
      url: '/v1/ops/session',
      headers: { cookie: alice.cookie },
    });
    expectProblem(withoutToken, 403);
    const out = await t.app.inject({ method: 'DELETE', url: '/v1/ops/session', headers: alice.headers });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/rpl-ops-session=; Max-Age=0/);
    const after = await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: alice.cookie } });
    expect(expectProblem(after, 401).detail).toMatch(/session has ended/);
  });

  it('expired session: idle for 30 minutes, or 12 hours after sign-in whatever its use', async () => {
    const idle = await signIn(t.app, 'alice');
    clock += 29 * MINUTE;
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: idle.cookie } })).statusCode,
    ).toBe(200);
    clock += 29 * MINUTE; // 29 minutes since last use: still alive
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: idle.cookie } })).statusCode,
    ).toBe(200);
    clock += 31 * MINUTE;
    const expired = await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: idle.cookie } });
    expect(expectProblem(expired, 401).detail).toMatch(/expired after 30 minutes without use/);
    // And it stays gone (deleted on the server), even if the clock went back.
    clock -= 31 * MINUTE;
    expectProblem(await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: idle.cookie } }), 401);

    const busy = await signIn(t.app, 'alice');
    for (let used = 0; used < 12 * 60; used += 20) {
      clock += 20 * MINUTE;
      const response = await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: busy.cookie } });
      expect(response.statusCode, `after ${used + 20} minutes`).toBe(used + 20 <= 12 * 60 ? 200 : 401);
    }
    clock += 20 * MINUTE;
    const over = await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: busy.cookie } });
    expect(expectProblem(over, 401).detail).toMatch(/12-hour limit/);
  });

  it('sign-in attempts are rate limited per account (the right password included) and per address', async () => {
    const limits = await buildApp({
      store: t.store,
      searchIndexBuild: 'inline',
      ops: { signInLimit: { perAccountMax: 3, perAddressMax: 5, windowMs: 60_000 } },
    });
    try {
      const attempt = (name: string, password: string) =>
        limits.inject({ method: 'POST', url: '/v1/ops/session', payload: { name, password } });
      for (let i = 0; i < 3; i++) expect((await attempt('limited', `guess number ${i}`)).statusCode).toBe(401);
      const limited = await attempt('limited', OPS_PASSWORD);
      expect(expectProblem(limited, 429).detail).toMatch(/Too many sign-in attempts/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['set-cookie']).toBeUndefined();
      // Another account is not held back by it…
      expect((await attempt('carol', OPS_PASSWORD)).statusCode).toBe(200);
      // …until the address has used its own budget (5), whatever the names.
      expectProblem(await attempt('alice', OPS_PASSWORD), 429);
    } finally {
      await limits.close();
    }
  });

  it('an API key with ops roles acts without a cookie or CSRF token; a lookups key or an unknown key does not', async () => {
    const me = await t.app.inject({
      method: 'GET',
      url: '/v1/ops/session',
      headers: { authorization: `Bearer ${opsKey}` },
    });
    expect(me.json()).toEqual({
      name: 'key:nightly loader',
      roles: ['maker'],
      via: 'api-key',
      csrfToken: null,
      expiresAt: null,
      idleTimeoutSeconds: null,
    });
    const notAdmin = await t.app.inject({
      method: 'GET',
      url: '/v1/ops/accounts',
      headers: { authorization: `Bearer ${opsKey}` },
    });
    expectProblem(notAdmin, 403);
    const lookups = await t.app.inject({
      method: 'GET',
      url: '/v1/ops/session',
      headers: { authorization: `Bearer ${lookupKey}` },
    });
    expect(expectProblem(lookups, 403).detail).toMatch(/no ops roles/);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/v1/ops/session',
      headers: { authorization: 'Bearer nope' },
    });
    expectProblem(unknown, 401);
  });

  it.runIf(engine === 'postgres')(
    'a session opened through one instance is accepted by another on the same database',
    async () => {
      const source = t.store.source as { connectionString: string };
      const otherStore = PgStore.open({ connectionString: source.connectionString });
      const other = await buildApp({ store: otherStore, searchIndexBuild: 'inline', ops: { now: () => clock } });
      try {
        const session = await signIn(t.app, 'alice');
        const me = await other.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: session.cookie } });
        expect(me.json()).toMatchObject({ name: 'alice', via: 'session' });
        // Signed out through the second instance: the first no longer accepts it.
        expect(
          (await other.inject({ method: 'DELETE', url: '/v1/ops/session', headers: session.headers })).statusCode,
        ).toBe(204);
        expectProblem(
          await t.app.inject({ method: 'GET', url: '/v1/ops/session', headers: { cookie: session.cookie } }),
          401,
        );
      } finally {
        await other.close();
        await otherStore.close();
      }
    },
  );
});

describe('session cookie helper', () => {
  it('ignores a cleared cookie', () => {
    expect(
      sessionCookieOf({ headers: { 'set-cookie': ['rpl-ops-session=; Max-Age=0; Path=/'] } } as never),
    ).toBeUndefined();
  });
});
