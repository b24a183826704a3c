import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { OpsRole } from '../contract/ops-auth';
import { changeDetail, type ChangeDetail } from '../contract/ops-changes';
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

const UPLOAD_BOUNDARY = '----rpl-test-upload-boundary';
/** The Content-Type of a body made by `multipartUpload`. */
export const MULTIPART_TYPE = `multipart/form-data; boundary=${UPLOAD_BOUNDARY}`;

/** A desk upload's multipart body: the fields in order (`kind` first), then the file. */
export function multipartUpload(fields: Record<string, string>, fileName: string, content: Buffer | string): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.concat([
    Buffer.from(
      parts.join('') +
        `--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${UPLOAD_BOUNDARY}--\r\n`),
  ]);
}

/** Uploads a change as `maker` (202) and waits until it is no longer validating; the change as `reader` sees it. */
export async function stageUpload(
  app: FastifyInstance,
  maker: OpsSessionCookie,
  reader: OpsSessionCookie,
  payload: Buffer,
): Promise<ChangeDetail> {
  const staged = await app.inject({
    method: 'POST',
    url: '/v1/ops/changes',
    headers: { ...maker.headers, 'content-type': MULTIPART_TYPE },
    payload,
  });
  if (staged.statusCode !== 202) throw new Error(`staging: ${staged.statusCode} ${staged.body}`);
  const { id } = staged.json() as { id: string };
  for (;;) {
    const read = await app.inject({ method: 'GET', url: `/v1/ops/changes/${id}`, headers: { cookie: reader.cookie } });
    const detail = changeDetail.parse(read.json());
    if (detail.status !== 'validating') return detail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
