import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../../contract';
import { auditEntry, changeDetail, changeSummary, opsPage } from '../../../../../contract/ops-changes';
import {
  COMMENT_MAX_LENGTH,
  IDENTICAL_TO_SERVED,
  changeComment,
  changeComments,
  overlappingChanges,
  staleChangeProblem,
  waitingChanges,
} from '../../../../../contract/ops-flow';
import { createTestApp, testEngines, type TestApp } from '../../../../../testing/test-app';
import { csvRows } from '../../../../../testing/csv-rows';
import {
  createOpsAccount,
  multipartUpload,
  signIn,
  stageUpload,
  type OpsSessionCookie,
} from '../../../../../testing/ops';
import { REPO_ROOT } from '../../../../paths';
import { editedBangladesh, expectedDifference, writeBranchFile, type Cells } from '../../../../desk/__tests__/fixtures';

// A change flow that tells the truth, through the real app on both stores: a change made stale by another's
// publish stays in the inbox's default (pending) list and can be compared again; approving it answers a 409 that
// names the re-diff with the new counts (worked out from the files alone); a file identical to what is served is
// refused at staging; the other pending changes of an overlapping scope; comments kept as written and audited;
// how many changes wait for each checker.

const counts = (served: Cells[], next: Cells[]) => {
  const d = expectedDifference(served, next);
  return { added: d.added.length, changed: d.changed.length, removed: d.removed.length };
};

describe.each(testEngines())('the change flow (%s)', (engine) => {
  let t: TestApp;
  let dir: string;
  let mia: OpsSessionCookie; // maker
  let max: OpsSessionCookie; // maker and checker
  let cal: OpsSessionCookie; // checker
  let ada: OpsSessionCookie; // admin only
  const rows = { a: editedBangladesh(1, 'FLOW A'), b: editedBangladesh(2, 'FLOW B'), c: editedBangladesh(3, 'FLOW C') };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-ops-flow-'));
    t = await createTestApp({ engine, uploads: { dir: join(dir, 'uploads') } });
    await createOpsAccount(t.app, 'mia', ['maker']);
    await createOpsAccount(t.app, 'max', ['maker', 'checker']);
    await createOpsAccount(t.app, 'cal', ['checker']);
    await createOpsAccount(t.app, 'ada', ['admin']);
    [mia, max, cal, ada] = await Promise.all(['mia', 'max', 'cal', 'ada'].map((name) => signIn(t.app, name)));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, who: OpsSessionCookie) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
  const post = (url: string, who: OpsSessionCookie, payload: unknown = {}) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object });
  const stage = (who: OpsSessionCookie, name: string, cells: Cells[]) =>
    stageUpload(
      t.app,
      who,
      cal,
      multipartUpload({ kind: 'branches' }, name, readFileSync(writeBranchFile(dir, name, cells))),
    );
  const waiting = async (who: OpsSessionCookie) => {
    const answer = await get('/v1/ops/changes/waiting', who);
    expect(answer.statusCode, answer.body).toBe(200);
    return waitingChanges.parse(answer.json()).count;
  };
  const change = async (id: string) => changeDetail.parse((await get(`/v1/ops/changes/${id}`, cal)).json());
  const listed = async (query: string) => {
    const answer = await get(`/v1/ops/changes?${query}`, cal);
    expect(answer.statusCode, answer.body).toBe(200);
    return opsPage(changeSummary).parse(answer.json()).data;
  };
  async function untilSettled(id: string) {
    for (let i = 0; i < 600; i++) {
      const now = await change(id);
      if (now.status !== 'validating') return now;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`change ${id} still validating`);
  }

  it('counts the changes waiting for each checker: staged by another person, without problems', async () => {
    expect(await waiting(cal)).toBe(0);
    ids.a = (await stage(mia, 'flow-a.csv', rows.a)).id;
    ids.b = (await stage(max, 'flow-b.csv', rows.b)).id;
    const broken = rows.c.map((row, i) => (i === 5 ? { ...row, routing_number: 'NOT-A-NUMBER' } : row));
    const refused = await stage(mia, 'flow-broken.csv', broken);
    expect(refused.problemCount).toBeGreaterThan(0);
    ids.broken = refused.id;
    ids.c = (await stage(mia, 'flow-c.csv', rows.c)).id;
    expect(await waiting(cal)).toBe(3); // a, b, c (not the one with problems)
    expect(await waiting(max)).toBe(2); // a, c: never their own b
    expect(await waiting(mia)).toBe(0); // a maker without the checker role decides nothing
    expect(await waiting(ada)).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/v1/ops/changes/waiting' })).statusCode).toBe(401);
  });

  it('lists the other pending changes of an overlapping scope (same kind, a country in common)', async () => {
    const nigeria = csvRows(readFileSync(join(REPO_ROOT, 'data', 'seed', 'bank-branches', 'NG.csv'))).slice(1);
    ids.ng = (await stage(mia, 'flow-ng.csv', nigeria)).id;
    const overlapping = async (id: string) => {
      const answer = await get(`/v1/ops/changes/${id}/overlapping`, cal);
      expect(answer.statusCode, answer.body).toBe(200);
      return overlappingChanges.parse(answer.json()).data.map((c) => c.id);
    };
    expect((await overlapping(ids.a)).sort()).toEqual([ids.b, ids.c, ids.broken].sort());
    expect(await overlapping(ids.ng)).toEqual([]);
    expect((await get('/v1/ops/changes/no-such-change/overlapping', cal)).statusCode).toBe(404);
  });

  it('keeps a stale change in the pending list; approving it answers a 409 naming the re-diff with its counts', async () => {
    const published = await post(`/v1/ops/changes/${ids.a}/approve`, cal, { comment: 'a first' });
    expect(published.statusCode, published.body).toBe(200);
    // b and c were diffed against the data a replaced: out of date, still pending, still waiting for a checker.
    const pending = await listed('status=pending&kind=branches');
    expect(pending.find((c) => c.id === ids.b)?.status).toBe('stale');
    expect(pending.find((c) => c.id === ids.c)?.status).toBe('stale');
    expect(pending.map((c) => c.id)).not.toContain(ids.a);
    expect((await listed('')).find((c) => c.id === ids.b)?.status).toBe('stale');
    expect((await listed('status=staged')).map((c) => c.id)).not.toContain(ids.b);
    expect(await waiting(cal)).toBe(3); // b, c, and the Nigerian change

    const refused = await post(`/v1/ops/changes/${ids.b}/approve`, cal, { comment: 'b' });
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    const body = staleChangeProblem.parse(refused.json());
    expect(body.type).toBe('urn:problem:stale-change');
    expect(body.detail).toContain('Another change was published');
    expect(body.detail).toContain('the difference was computed again');
    const expected = counts(rows.a, rows.b);
    expect(body.counts).toEqual(expected);
    expect(body.detail).toContain(`${expected.added} added, ${expected.changed} changed, ${expected.removed} removed`);
    expect(body.change).toMatchObject({ id: ids.b, status: 'staged' });
    expect(body.servedNow).not.toBe(body.diffedFrom);
    expect((await change(ids.b)).diff!.counts).toEqual(expected);
  });

  it('compares a stale change again on request (maker or checker); a current one has nothing to compare', async () => {
    const rechecked = await post(`/v1/ops/changes/${ids.c}/recheck`, mia);
    expect(rechecked.statusCode, rechecked.body).toBe(202);
    const now = await untilSettled(ids.c);
    expect(now.status).toBe('staged');
    expect(now.diff!.counts).toEqual(counts(rows.a, rows.c));
    expect(now.approvable).toBe(true);
    const again = await post(`/v1/ops/changes/${ids.c}/recheck`, cal);
    expect(again.statusCode).toBe(409);
    expect(problem.parse(again.json()).detail).toContain('not stale');
    expect((await post(`/v1/ops/changes/${ids.c}/recheck`, ada)).statusCode).toBe(403);
    const audit = opsPage(auditEntry).parse((await get('/v1/ops/audit?action=recheck', cal)).json()).data;
    expect(audit.find((e) => e.target === ids.c)).toMatchObject({ actor: 'mia', action: 'recheck' });
  });

  it('refuses a file identical to what is served at staging: failed with the reason, never approvable', async () => {
    const same = await stage(mia, 'flow-a-again.csv', rows.a);
    expect(same.status).toBe('failed');
    expect(same.failure).toBe(IDENTICAL_TO_SERVED);
    expect(same.diff!.counts).toEqual({ added: 0, changed: 0, removed: 0 });
    expect(same.approvable).toBe(false);
    const approve = await post(`/v1/ops/changes/${same.id}/approve`, cal, {});
    expect(approve.statusCode).toBe(409);
    expect((await listed('status=pending')).map((c) => c.id)).not.toContain(same.id);
    expect((await listed('status=failed')).find((c) => c.id === same.id)?.failure).toBe(IDENTICAL_TO_SERVED);
    // A file of other rows that serves the same records is just as identical.
    expect((await stage(mia, 'flow-a-reordered.csv', [...rows.a].reverse())).failure).toBe(IDENTICAL_TO_SERVED);
  });

  it('keeps comments of makers and checkers as written (plain text), with who and when, and audits them', async () => {
    const url = `/v1/ops/changes/${ids.b}/comments`;
    const markup = '  <script>alert("x")</script> & <b>bold</b>\r\nsecond line  ';
    const first = await post(url, mia, { text: markup });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['content-type']).toContain('application/json');
    const kept = changeComment.parse(first.json());
    expect(kept).toMatchObject({
      changeId: ids.b,
      author: 'mia',
      text: '<script>alert("x")</script> & <b>bold</b>\nsecond line',
    });
    expect(Date.parse(kept.at)).toBeGreaterThan(Date.now() - 60_000);
    const longest = 'x'.repeat(COMMENT_MAX_LENGTH);
    expect((await post(url, cal, { text: longest })).statusCode).toBe(201);
    for (const text of ['   ', 'x'.repeat(COMMENT_MAX_LENGTH + 1), 'bell \u0007']) {
      const refused = await post(url, cal, { text });
      expect(refused.statusCode).toBe(400);
      expect(problem.parse(refused.json()).errors[0].name).toBe('text');
    }
    expect((await post(url, ada, { text: 'admin only' })).statusCode).toBe(403);
    expect((await post('/v1/ops/changes/no-such-change/comments', cal, { text: 'hello' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url, payload: { text: 'anonymous' } })).statusCode).toBe(401);

    const read = await get(url, max);
    expect(read.statusCode).toBe(200);
    const thread = changeComments.parse(read.json()).data;
    expect(thread.map((c) => [c.author, c.text])).toEqual([
      ['mia', '<script>alert("x")</script> & <b>bold</b>\nsecond line'],
      ['cal', longest],
    ]);
    expect(changeComments.parse((await get(`/v1/ops/changes/${ids.c}/comments`, max)).json()).data).toEqual([]);
    const audit = opsPage(auditEntry).parse((await get('/v1/ops/audit?action=comment', cal)).json()).data;
    expect(audit.filter((e) => e.target === ids.b).map((e) => e.actor)).toEqual(['cal', 'mia']);
    expect(audit.find((e) => e.actor === 'mia')?.detail).toMatchObject({ commentId: kept.id, text: kept.text });
  });
});
