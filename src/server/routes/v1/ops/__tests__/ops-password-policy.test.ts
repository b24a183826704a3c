import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../../contract';
import { createTestApp, testEngines, type TestApp } from '../../../../../testing/test-app';
import { createOpsAccount, OPS_PASSWORD, signIn, type OpsSessionCookie } from '../../../../../testing/ops';

// The password policy where the API sets a password (the admin creating an account, or setting a new
// password), through the real app on both stores: a 400 naming the body's password, and nothing changed.

const WEAK: [string, RegExp][] = [
  ['passwordpassword', /^is too easy to guess: it repeats a short pattern/],
  ['123456789012', /^is too easy to guess: it is a common password/],
  [' '.repeat(12), /^is too easy to guess: it repeats one character/],
  ['qwertyuiopasdf', /^is too easy to guess/],
  ['P@ssw0rd2024!', /^is too easy to guess/],
];

describe.each(testEngines())('the password policy of the accounts API (%s)', (engine) => {
  let t: TestApp;
  let admin: OpsSessionCookie;
  beforeAll(async () => {
    t = await createTestApp({ engine });
    await createOpsAccount(t.app, 'root', ['admin']);
    await createOpsAccount(t.app, 'erin', ['maker']);
    admin = await signIn(t.app, 'root');
  });
  afterAll(async () => t.close());

  const refused = (response: { statusCode: number; json(): unknown }, reason: RegExp) => {
    expect(response.statusCode).toBe(400);
    const body = problem.parse(response.json());
    expect(body.type).toBe('urn:problem:invalid-request');
    expect(body.detail).toMatch(/^The password /);
    expect(body.errors).toEqual([{ name: 'password', in: 'body', message: expect.stringMatching(reason) }]);
  };

  it('refuses a common, repeated or sequential password at account creation, and creates nothing', async () => {
    for (const [password, reason] of WEAK) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/ops/accounts',
        headers: admin.headers,
        payload: { name: 'frank', roles: ['maker'], password },
      });
      refused(response, reason);
      expect(await t.app.opsAccounts.account('frank')).toBeNull();
    }
  });

  it('refuses the account name, or the name with a few characters around it', async () => {
    for (const password of ['frankfrankfrank', 'Frank1234567890', 'knarf-knarf-knarf']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/ops/accounts',
        headers: admin.headers,
        payload: { name: 'frank', roles: ['maker'], password },
      });
      refused(response, /account name/);
    }
    expect(await t.app.opsAccounts.account('frank')).toBeNull();
    const strong = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/accounts',
      headers: admin.headers,
      payload: { name: 'frank', roles: ['maker'], password: 'frank likes quiet harbour mornings' },
    });
    expect(strong.statusCode).toBe(201);
  });

  it('refuses a weak new password, and the old one still signs in', async () => {
    for (const [password, reason] of WEAK) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: '/v1/ops/accounts/erin',
        headers: admin.headers,
        payload: { password },
      });
      refused(response, reason);
    }
    await signIn(t.app, 'erin', OPS_PASSWORD);
    const strong = await t.app.inject({
      method: 'PATCH',
      url: '/v1/ops/accounts/erin',
      headers: admin.headers,
      payload: { password: 'violet kettles hum at dawn' },
    });
    expect(strong.statusCode).toBe(200);
    await signIn(t.app, 'erin', 'violet kettles hum at dawn');
  });
});
