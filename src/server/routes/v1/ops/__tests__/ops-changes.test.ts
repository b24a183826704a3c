import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../../contract';
import { changeDetail, changeSummary } from '../../../../../contract/ops-changes';
import { buildApp } from '../../../../app';
import { createTestApp, LOOKUP_HEADERS, testEngines, type TestApp } from '../../../../../testing/test-app';
import { createOpsAccount, signIn, type OpsSessionCookie } from '../../../../../testing/ops';
import { editedBangladesh, NEW_BRANCH, writeBranchFile } from '../../../../desk/__tests__/fixtures';

// The desk's changes over HTTP, through the real app on both stores: upload (multipart, streamed), the
// four-eyes rule, CSRF, roles, and the upload size limit.

const BOUNDARY = '----rpl-test-boundary';
function multipart(kind: string, fileName: string, content: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${kind}\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}
const multipartType = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

describe.each(testEngines())('ops changes over HTTP (%s)', (engine) => {
  let t: TestApp;
  let dir: string;
  let file: Buffer;
  let maker: OpsSessionCookie;
  let checker: OpsSessionCookie;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-ops-changes-'));
    t = await createTestApp({ engine, uploads: { dir: join(dir, 'uploads') } });
    await createOpsAccount(t.app, 'alice', ['maker', 'checker']);
    await createOpsAccount(t.app, 'bob', ['checker']);
    maker = await signIn(t.app, 'alice');
    checker = await signIn(t.app, 'bob');
    file = readFileSync(writeBranchFile(dir, 'bd-edited.csv', editedBangladesh(2)));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = (headers: Record<string, string>, payload = multipart('branches', 'bd-edited.csv', file)) =>
    t.app.inject({ method: 'POST', url: '/v1/ops/changes', headers: { ...headers, ...multipartType }, payload });

  it('refuses without a session (401), for a teller id (403), without the CSRF token (403)', async () => {
    expect(problem.parse((await upload({})).json()).status).toBe(401);
    expect((await upload(LOOKUP_HEADERS)).statusCode).toBe(403);
    const noToken = await upload({ cookie: maker.cookie });
    expect(noToken.statusCode).toBe(403);
    expect(problem.parse(noToken.json()).errors[0].name).toBe('x-csrf-token');
    expect((await t.app.inject({ method: 'GET', url: '/v1/ops/changes' })).statusCode).toBe(401);
  });

  it('stages an upload; its maker cannot approve it (403) whatever their roles; another checker can', async () => {
    const staged = await upload(maker.headers);
    expect(staged.statusCode).toBe(202);
    const { id } = changeSummary.parse(staged.json());
    let detail = changeDetail.parse(
      (await t.app.inject({ method: 'GET', url: `/v1/ops/changes/${id}`, headers: { cookie: checker.cookie } })).json(),
    );
    for (let i = 0; i < 600 && detail.status === 'validating'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      detail = changeDetail.parse(
        (
          await t.app.inject({ method: 'GET', url: `/v1/ops/changes/${id}`, headers: { cookie: checker.cookie } })
        ).json(),
      );
    }
    expect(detail).toMatchObject({
      status: 'staged',
      stagedBy: 'alice',
      stagedVia: 'session',
      fileName: 'bd-edited.csv',
    });
    expect(detail.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.diff!.counts).toEqual({ added: 1, removed: 1, changed: 2 });
    const diff = await t.app.inject({
      method: 'GET',
      url: `/v1/ops/changes/${id}/diff?op=changed`,
      headers: { cookie: checker.cookie },
    });
    expect(diff.json().pagination.totalItems).toBe(2);
    const inbox = await t.app.inject({
      method: 'GET',
      url: '/v1/ops/changes?status=staged',
      headers: { cookie: checker.cookie },
    });
    expect(inbox.json().data.map((c: { id: string }) => c.id)).toContain(id);

    const own = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${id}/approve`,
      headers: maker.headers,
      payload: {},
    });
    expect(own.statusCode).toBe(403);
    expect(problem.parse(own.json()).detail).toMatch(/maker of a change cannot approve it/);
    const noReason = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${id}/reject`,
      headers: checker.headers,
      payload: { reason: ' ' },
    });
    expect(noReason.statusCode).toBe(400);
    const approved = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${id}/approve`,
      headers: checker.headers,
      payload: { comment: 'checked against the bank letter' },
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'published', decidedBy: 'bob' });
    // "Published" means this instance serves it: the code lookup (the search index) finds the new branch at once.
    const found = await t.get(`/v1/codes/${NEW_BRANCH.routing_number}`);
    expect(found.statusCode).toBe(200);
    expect(found.body).toContain(NEW_BRANCH.branch_name);
    const audit = await t.app.inject({
      method: 'GET',
      url: '/v1/ops/audit?pageSize=100',
      headers: { cookie: checker.cookie },
    });
    const actions = (audit.json().data as { action: string; actor: string }[]).map((e) => `${e.actor}:${e.action}`);
    expect(actions).toEqual(expect.arrayContaining(['alice:sign-in', 'bob:sign-in', 'alice:stage', 'bob:approve']));
  });

  it('an upload over the size limit is refused with 413, nothing staged', async () => {
    const small = await buildApp({
      store: t.store,
      searchIndexBuild: 'inline',
      uploads: { dir: join(dir, 'small'), maxBytes: 1000 },
    });
    try {
      const session = await signIn(small, 'alice');
      const before = (await small.desk.list({ pageNumber: 1, pageSize: 1 })).pagination.totalItems;
      const response = await small.inject({
        method: 'POST',
        url: '/v1/ops/changes',
        headers: { ...session.headers, ...multipartType },
        payload: multipart('branches', 'bd-edited.csv', file),
      });
      expect(response.statusCode).toBe(413);
      expect(problem.parse(response.json()).type).toBe('urn:problem:payload-too-large');
      expect((await small.desk.list({ pageNumber: 1, pageSize: 1 })).pagination.totalItems).toBe(before);
    } finally {
      await small.close();
    }
  });
});
