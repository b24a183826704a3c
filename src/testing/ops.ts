import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { OpsRole } from '../contract/ops-auth';
import { addAccount } from '../server/desk/accounts';

// Ops accounts and signed-in sessions for the desk's API tests (through the real app and its real store).

export const OPS_PASSWORD = 'a long pass phrase 0123';

export interface OpsSessionCookie {
  /** The Cookie header value that carries the session. */
  cookie: string;
  csrfToken: string;
  /** The headers of a state-changing call of this session: cookie, CSRF token, same-origin. */
  headers: Record<string, string>;
}

/** The shell user the tests' accounts are created by (as `npm run ops-user` would record). */
export const OPS_TEST_CREATOR = 'test-setup';

export async function createOpsAccount(app: FastifyInstance, name: string, roles: OpsRole[], password = OPS_PASSWORD) {
  return addAccount(app.opsAccounts, { name, roles, password }, OPS_TEST_CREATOR);
}

/** The `name=value` of the response's session cookie (Set-Cookie), or undefined. */
export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const header = response.headers['set-cookie'];
  const cookies = [header ?? []].flat();
  const session = cookies.find((c) => /^(__Host-)?rpl-ops-session=[^;]+/.test(c) && !/Max-Age=0/i.test(c));
  return session?.split(';')[0];
}

export async function signIn(
  app: FastifyInstance,
  name: string,
  password = OPS_PASSWORD,
  headers: Record<string, string> = {},
): Promise<OpsSessionCookie & { response: LightMyRequestResponse }> {
  const response = await app.inject({ method: 'POST', url: '/v1/ops/session', payload: { name, password }, headers });
  if (response.statusCode !== 200) throw new Error(`sign-in of ${name}: ${response.statusCode} ${response.body}`);
  const cookie = sessionCookieOf(response)!;
  const csrfToken = (response.json() as { csrfToken: string }).csrfToken;
  return {
    response,
    cookie,
    csrfToken,
    headers: { cookie, 'x-csrf-token': csrfToken, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
  };
}
