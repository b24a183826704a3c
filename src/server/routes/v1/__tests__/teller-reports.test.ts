import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../contract';
import { auditEntry, opsPage } from '../../../../contract/ops-changes';
import { report, reportReceipt, reportsPage, type ReportReason } from '../../../../contract/reports';
import { createTestApp, testEngines, type TestApp } from '../../../../testing/test-app';
import { createOpsAccount, signIn, type OpsSessionCookie } from '../../../../testing/ops';

// Tellers' reports on both stores: POST /v1/reports stores a report of a served record with the correspondent id
// it came with; a record not served, an empty or over-long note are 400s; each correspondent has its own budget
// (429 problem+json after it, another correspondent unaffected); markup in a note is kept and answered as JSON
// text; the desk lists the queue and one record's reports, and closes a report with the change that fixed it and
// an audit row.

const BRANCH = 'IN~ABHY0065002';
const AGENT = 'ACCSNG00001';
const LIMIT = 3;

describe.each(testEngines())("tellers' reports (%s)", (engine) => {
  let t: TestApp;
  let analyst: OpsSessionCookie;
  beforeAll(async () => {
    t = await createTestApp({ engine, reportLimit: { max: LIMIT, timeWindowMs: 60_000 } });
    await createOpsAccount(t.app, 'rita', ['maker']);
    analyst = await signIn(t.app, 'rita');
  });
  afterAll(async () => t.close());

  const send = (correspondent: string | null, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/reports',
      headers: correspondent ? { 'x-fapi-financial-id': correspondent } : {},
      payload: body,
    });
  const wrongRouting = (note: string, key = BRANCH) => ({
    kind: 'branches',
    key,
    reason: 'wrong-routing-number' satisfies ReportReason,
    note,
  });
  const opsGet = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: analyst.cookie } });
  const queue = async (query: Record<string, string> = {}) => {
    const response = await opsGet(`/v1/ops/reports?${new URLSearchParams(query).toString()}`);
    expect(response.statusCode, response.body).toBe(200);
    return reportsPage.parse(response.json());
  };

  it('stores a report of a served branch with its correspondent id; the desk finds it, newest first, and by record', async () => {
    const first = await send('RA01AA', wrongRouting('The IFSC on the cheque is ABHY0065020, not 0065002.'));
    expect(first.statusCode, first.body).toBe(201);
    const receipt = reportReceipt.parse(first.json());
    expect(receipt).toMatchObject({ kind: 'branches', key: BRANCH, reason: 'wrong-routing-number' });
    expect(receipt.id).toMatch(/^R-[0-9A-Z]{8}$/);
    const agent = await send('RA01AA', { kind: 'agents', key: AGENT, reason: 'closed', note: '  Closed since May.  ' });
    expect(agent.statusCode, agent.body).toBe(201);
    expect(reportReceipt.parse(agent.json()).note).toBe('Closed since May.');

    const open = await queue();
    const mine = open.data.filter((r) => r.correspondentId === 'RA01AA');
    expect(mine.map((r) => r.key)).toEqual([AGENT, BRANCH]);
    expect(mine[1]).toMatchObject({
      id: receipt.id,
      status: 'open',
      note: 'The IFSC on the cheque is ABHY0065020, not 0065002.',
      closedAt: null,
      fixedBy: null,
    });
    const byRecord = await queue({ kind: 'agents', key: AGENT, status: 'all' });
    expect(byRecord.data.map((r) => r.key)).toEqual([AGENT]);
    expect(byRecord.data.some((r) => r.correspondentId === 'RA01AA')).toBe(true);
  });

  it('refuses a record not served, an empty or over-long note, a missing correspondent id: 400 naming the field', async () => {
    const cases: [string | null, Record<string, unknown>, string][] = [
      ['RP02AA', wrongRouting('wrong', 'IN~ABHY9999999'), 'key'],
      ['RP02AA', { ...wrongRouting('wrong'), kind: 'agents' }, 'key'],
      ['RP02AA', wrongRouting('wrong', 'IN~%E0%A4%A'), 'key'],
      ['RP02AA', wrongRouting('   '), 'note'],
      ['RP02AA', wrongRouting(''), 'note'],
      ['RP02AA', wrongRouting('x'.repeat(501)), 'note'],
      ['RP02AA', { ...wrongRouting('wrong'), reason: 'other reason' }, 'reason'],
      ['RP02AA', { ...wrongRouting('wrong'), html: '<b>' }, 'body'],
      [null, wrongRouting('wrong'), 'x-fapi-financial-id'],
      ['bad', wrongRouting('wrong'), 'x-fapi-financial-id'],
    ];
    // Each case from its own correspondent: a refused report spends its sender's budget too.
    for (const [i, [correspondent, body, field]] of cases.entries()) {
      const response = await send(correspondent && `${correspondent.slice(0, 2)}${String(i).padStart(4, '0')}`, body);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      const answer = problem.parse(response.json());
      expect(answer.errors.map((e) => e.name)).toContain(field);
    }
    expect(await send('RQ03AA', wrongRouting('x'.repeat(500)))).toHaveProperty('statusCode', 201);
    const stored = await queue({ kind: 'branches', key: BRANCH, status: 'all', pageSize: '100' });
    expect(stored.data.filter((r) => r.correspondentId.startsWith('RP0'))).toEqual([]);
  });

  it('limits each correspondent: 429 problem+json with Retry-After after its budget; another correspondent is not limited', async () => {
    for (let i = 0; i < LIMIT; i++) {
      const response = await send('RL01AA', wrongRouting(`report ${i}`));
      expect(response.statusCode, response.body).toBe(201);
    }
    const refused = await send('RL01AA', wrongRouting('one too many'));
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(problem.parse(refused.json()).type).toBe('urn:problem:too-many-requests');
    const other = await send('RL02BB', wrongRouting('not limited by RL01AA'));
    expect(other.statusCode, other.body).toBe(201);
    const stored = await queue({ pageSize: '100' });
    expect(stored.data.filter((r) => r.correspondentId === 'RL01AA')).toHaveLength(LIMIT);
  });

  it('keeps markup in a note as text: stored and answered verbatim as JSON, never as HTML', async () => {
    const note = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes" =1+1`;
    const response = await send('XS01AA', { kind: 'branches', key: BRANCH, reason: 'other', note });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(reportReceipt.parse(response.json()).note).toBe(note);
    const listed = await opsGet('/v1/ops/reports?status=all&pageSize=100');
    expect(listed.headers['content-type']).toMatch(/^application\/json/);
    expect(listed.headers['x-content-type-options']).toBe('nosniff');
    const found = reportsPage.parse(listed.json()).data.find((r) => r.correspondentId === 'XS01AA');
    expect(found?.note).toBe(note);
  });

  it('closes a report with the change that fixed it: who and when recorded, an audit row; twice is 409, unknown 404', async () => {
    const sent = reportReceipt.parse(
      (await send('CL01AA', { kind: 'branches', key: BRANCH, reason: 'wrong-address', note: 'Moved' })).json(),
    );
    const close = (id: string, body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `/v1/ops/reports/${id}/close`, headers: analyst.headers, payload: body });
    const empty = await close(sent.id, { fixedBy: '  ' });
    expect(empty.statusCode).toBe(400);
    const before = Date.now();
    const closed = await close(sent.id, { fixedBy: 'change 7f3a9c1e', note: 'Address corrected' });
    expect(closed.statusCode, closed.body).toBe(200);
    const answer = report.parse(closed.json());
    expect(answer).toMatchObject({
      id: sent.id,
      status: 'closed',
      closedBy: 'rita',
      fixedBy: 'change 7f3a9c1e',
      closeNote: 'Address corrected',
    });
    expect(Date.parse(answer.closedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect((await queue()).data.map((r) => r.id)).not.toContain(sent.id);
    expect((await queue({ status: 'closed' })).data.map((r) => r.id)).toContain(sent.id);

    const audit = await opsGet('/v1/ops/audit?action=close-report');
    const rows = opsPage(auditEntry).parse(audit.json()).data;
    expect(rows.find((r) => r.target === sent.id)).toMatchObject({
      actor: 'rita',
      via: 'session',
      action: 'close-report',
      detail: { kind: 'branches', key: BRANCH, fixedBy: 'change 7f3a9c1e', note: 'Address corrected' },
    });

    const again = await close(sent.id, { fixedBy: 'another' });
    expect(again.statusCode).toBe(409);
    expect((await close('R-ZZZZZZZZ', { fixedBy: 'x' })).statusCode).toBe(404);
    expect((await close('nope', { fixedBy: 'x' })).statusCode).toBe(400);
  });

  it('the desk reads and closes reports only when signed in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/ops/reports' })).statusCode).toBe(401);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/reports/R-ZZZZZZZZ/close',
      payload: { fixedBy: 'x' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('a report meets the same correspondent registry as a lookup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ access: { correspondents: new Set(['RG01AA']) } });
  });
  afterAll(async () => t.close());

  it('an id the registry does not hold is refused (403); a registered one is stored', async () => {
    const body = { kind: 'branches', key: BRANCH, reason: 'other', note: 'checked' };
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/reports',
      headers: { 'x-fapi-financial-id': 'ZZ99ZZ' },
      payload: body,
    });
    expect(refused.statusCode).toBe(403);
    const stored = await t.app.inject({
      method: 'POST',
      url: '/v1/reports',
      headers: { 'x-fapi-financial-id': 'RG01AA' },
      payload: body,
    });
    expect(stored.statusCode, stored.body).toBe(201);
  });
});
