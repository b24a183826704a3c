import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliveResponse, problem, readyResponse } from '../../contract';
import { createTestApp, FINANCIAL_ID, LOOKUP_HEADERS, type TestApp } from '../../testing/test-app';
import { hashApiKey } from '../auth/credentials';
import { loadApiKeys, loadCorrespondents } from '../plugins/app/access';
import { startMetricsServer } from '../plugins/app/metrics';
import type { AddressInfo } from 'node:net';

// Access (registry, API keys), the audit line, security headers, CORS, limits, health and metrics, over
// real HTTP against the app listening on 127.0.0.1 (inject where only the app's logic matters).

const files = mkdtempSync(join(tmpdir(), 'rpl-access-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));

const listen = async (t: TestApp) => t.app.listen({ port: 0, host: '127.0.0.1' });
const AGENTS = '/v1/agents?receivingCountry=MX&deliveryMode=1&pageSize=2';

describe('correspondent registry and API keys', () => {
  const tellerKey = 'k-teller-0123456789abcdef0123456789abcdef';
  const otherKey = 'k-other-0123456789abcdef0123456789abcdef';
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    const registry = join(files, 'correspondents.txt');
    writeFileSync(registry, `# correspondents served\n${FINANCIAL_ID}\nCD34EF  # second\n\n`);
    const keys = join(files, 'api-keys.json');
    writeFileSync(
      keys,
      JSON.stringify({
        keys: [
          { holder: 'teller bank', sha256: hashApiKey(tellerKey), correspondents: [FINANCIAL_ID] },
          { holder: 'other bank', sha256: hashApiKey(otherKey), correspondents: ['CD34EF'] },
        ],
      }),
    );
    t = await createTestApp({ access: { correspondents: loadCorrespondents(registry), apiKeys: loadApiKeys(keys) } });
    base = await listen(t);
  });
  afterAll(async () => t.close());

  const call = (headers: Record<string, string>, path = AGENTS) => fetch(base + path, { headers });
  async function expectProblem(response: Response, status: number) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    return problem.parse(await response.json());
  }

  it('serves a registered correspondent with its own key', async () => {
    const response = await call({ ...LOOKUP_HEADERS, authorization: `Bearer ${tellerKey}` });
    expect(response.status).toBe(200);
  });

  it('answers 401 with a challenge when the key is missing or wrong', async () => {
    const missing = await call(LOOKUP_HEADERS);
    expect((await expectProblem(missing, 401)).type).toBe('urn:problem:unauthorized');
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const wrong = await call({ ...LOOKUP_HEADERS, authorization: 'Bearer not-a-key' });
    await expectProblem(wrong, 401);
    expect(wrong.headers.get('www-authenticate')).toContain('invalid_token');
    await expectProblem(await call({ ...LOOKUP_HEADERS, authorization: `Basic ${tellerKey}` }), 401);
  });

  it("answers 403 when a key is used with another correspondent's id", async () => {
    const body = await expectProblem(
      await call({ 'x-fapi-financial-id': 'CD34EF', authorization: `Bearer ${tellerKey}` }),
      403,
    );
    expect(body.errors).toEqual([expect.objectContaining({ name: 'x-fapi-financial-id', in: 'header' })]);
    expect((await call({ 'x-fapi-financial-id': 'CD34EF', authorization: `Bearer ${otherKey}` })).status).toBe(200);
  });

  it('answers 403 for a well-formed correspondent id that is not registered', async () => {
    const keysOff = await createTestApp({ access: { correspondents: new Set([FINANCIAL_ID]) } });
    try {
      const refused = await keysOff.get(AGENTS, {}, { 'x-fapi-financial-id': 'ZZ9999' });
      expect(refused.statusCode).toBe(403);
      expect(problem.parse(refused.json()).detail).toContain('ZZ9999');
      expect((await keysOff.get(AGENTS)).statusCode).toBe(200);
      // A malformed id is a validation error, named like any other invalid header.
      expect((await keysOff.get(AGENTS, {}, { 'x-fapi-financial-id': 'bad' })).statusCode).toBe(400);
    } finally {
      await keysOff.close();
    }
  });

  it('keeps health and the API reference open', async () => {
    for (const path of ['/healthz', '/readyz', '/v1/openapi.json']) expect((await call({}, path)).status).toBe(200);
  });

  it('closes /metrics while API keys are on and neither METRICS_KEY nor METRICS_PORT is set (issue 12, item 15)', async () => {
    const body = await expectProblem(await call({}, '/metrics'), 401);
    expect(body.detail).toMatch(/METRICS_KEY or METRICS_PORT/);
    // An API key is not a metrics key.
    expect((await call({ authorization: `Bearer ${tellerKey}` }, '/metrics')).status).toBe(401);
  });

  it('refuses a registry or key file with a malformed entry, naming the line', () => {
    const registry = join(files, 'bad-correspondents.txt');
    writeFileSync(registry, 'AB12CD\nab12cd\n');
    expect(() => loadCorrespondents(registry)).toThrow(/line 2: "ab12cd"/);
    const keys = join(files, 'bad-keys.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ holder: 'x', sha256: tellerKey, correspondents: [FINANCIAL_ID] }] }));
    expect(() => loadApiKeys(keys)).toThrow(/keys\.0\.sha256/);
  });
});

describe('audit log', () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const key = 'k-audit-0123456789abcdef0123456789abcdef';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      logger: { level: 'info', stream },
      access: { apiKeys: new Map([[hashApiKey(key), new Set([FINANCIAL_ID])]]) },
    });
  });
  afterAll(async () => t.close());

  it('writes one JSON line per request with who, what and how, and no secrets', async () => {
    const correlationId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const idempotencyKey = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const before = lines.length;
    const response = await t.get(
      '/v1/states',
      { receivingCountry: 'IN' },
      {
        ...LOOKUP_HEADERS,
        authorization: `Bearer ${key}`,
        'x-correlation-id': correlationId,
        'x-idempotency-key': idempotencyKey,
      },
    );
    expect(response.statusCode).toBe(200);
    const written = lines.slice(before);
    expect(written).toHaveLength(1);
    const [line] = written;
    expect(typeof line.time).toBe('number');
    expect(line.audit).toEqual({
      correspondentId: FINANCIAL_ID,
      correlationId,
      idempotencyKey,
      method: 'GET',
      route: '/v1/states',
      query: { receivingCountry: 'IN' },
      unknownParameters: 0,
      status: 200,
      durationMs: expect.any(Number),
    });
    expect(JSON.stringify(written)).not.toContain(key);
    expect(JSON.stringify(written).toLowerCase()).not.toContain('authorization');
  });

  it('logs refused requests too, with their status and without the key given', async () => {
    const before = lines.length;
    await t.get(
      '/v1/states',
      { receivingCountry: 'IN' },
      { ...LOOKUP_HEADERS, authorization: 'Bearer wrong-secret-value' },
    );
    const written = lines.slice(before);
    expect(written).toHaveLength(1);
    expect(written[0].audit).toMatchObject({
      status: 401,
      route: '/v1/states',
      correspondentId: FINANCIAL_ID,
      idempotencyKey: null,
    });
    expect(JSON.stringify(written)).not.toContain('wrong-secret-value');
  });
});

describe('browser side, limits, health and metrics (real HTTP)', () => {
  const allowed = 'https://portal.example.test';
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ corsOrigins: [allowed], limits: { maxUrlLength: 2048, maxHeaderSize: 8192 } });
    base = await listen(t);
  });
  afterAll(async () => t.close());

  it("sends the API's security headers on API answers and errors: nothing may be loaded, run or framed", async () => {
    for (const response of [
      await fetch(base + AGENTS, { headers: LOOKUP_HEADERS }),
      await fetch(`${base}/v1/agents`),
      await fetch(`${base}/v1/no-such-operation`),
    ]) {
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=/);
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-site');
      // frame-ancestors 'none' says it; a SAMEORIGIN X-Frame-Options would contradict it (issue 12, item 14).
      expect(response.headers.get('x-frame-options')).toBeNull();
      // What governs a page (its browsing context group, agent cluster, old browsers' policies) is not sent on
      // JSON: ~0.6 kB less on every answer.
      for (const name of [
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-xss-protection',
        'x-download-options',
      ])
        expect(response.headers.get(name), name).toBeNull();
    }
  });

  it('sends the document security headers on pages: the API reference keeps the full CSP', async () => {
    const response = await fetch(`${base}/v1/docs/`, { redirect: 'follow' });
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves /v1/docs under the CSP: every script is a same-origin file', async () => {
    const response = await fetch(`${base}/v1/docs/`, { redirect: 'follow' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(attributes).toMatch(/src="\.?\/?[^":]+"/);
      expect(inline.trim()).toBe('');
    }
    expect((await fetch(`${base}/v1/docs/static/swagger-initializer.js`)).status).toBe(200);
  });

  it('allows a listed origin, with the lookup headers in the preflight', async () => {
    const preflight = await fetch(base + AGENTS, {
      method: 'OPTIONS',
      headers: {
        origin: allowed,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-fapi-financial-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-fapi-financial-id');
    const response = await fetch(base + AGENTS, { headers: { ...LOOKUP_HEADERS, origin: allowed } });
    expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(response.headers.get('access-control-expose-headers')).toContain('x-correlation-id');
  });

  it('gives a refused origin no CORS grant', async () => {
    const response = await fetch(base + AGENTS, {
      headers: { ...LOOKUP_HEADERS, origin: 'https://evil.example.test' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(base + AGENTS, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.test', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps CORS closed when no origin is configured', async () => {
    const closed = await createTestApp();
    try {
      const url = await listen(closed);
      const response = await fetch(url + AGENTS, { headers: { ...LOOKUP_HEADERS, origin: allowed } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await closed.close();
    }
  });

  it('answers an over-long URL with 414 and an over-large head with 431, both problem+json', async () => {
    const long = await fetch(`${base}/v1/agents?search=${'a'.repeat(2100)}`, { headers: LOOKUP_HEADERS });
    expect(long.status).toBe(414);
    expect(problem.parse(await long.json()).type).toBe('urn:problem:uri-too-long');
    const large = await fetch(base + AGENTS, { headers: { ...LOOKUP_HEADERS, 'x-padding': 'p'.repeat(9000) } });
    expect(large.status).toBe(431);
    expect(large.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(problem.parse(await large.json()).type).toBe('urn:problem:headers-too-large');
  });

  it('answers /healthz and /readyz without a correspondent header', async () => {
    const alive = await fetch(`${base}/healthz`);
    expect(alive.status).toBe(200);
    expect(aliveResponse.parse(await alive.json())).toEqual({ status: 'alive' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(readyResponse.parse(await ready.json())).toMatchObject({
      status: 'ready',
      engine: 'sqlite',
      searchIndex: { dataVersion: '1', branches: 24_114, agents: 25_120 },
    });
  });

  it('exposes per-route request counts and latency histograms in Prometheus text', async () => {
    await fetch(base + AGENTS, { headers: LOOKUP_HEADERS });
    await fetch(`${base}/v1/agents`);
    await fetch(`${base}/no/such/path`);
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/agents",status="200"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/agents",status="400"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/v1\/agents",status="200"\} \d+/,
    );
    expect(text).toContain('process_resident_memory_bytes');
  });
});

describe('readiness without data', () => {
  it('answers 503 problem+json from /readyz while the store holds no data set', async () => {
    const { SqliteStore } = await import('../store/sqlite/sqlite-store');
    const dir = mkdtempSync(join(tmpdir(), 'rpl-empty-'));
    const empty = await createTestApp({ store: SqliteStore.open(join(dir, 'empty.sqlite')) });
    try {
      const response = await empty.app.inject('/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(problem.parse(response.json()).type).toBe('urn:problem:unavailable');
    } finally {
      await empty.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('/metrics behind a metrics key or on its own port (issue 12, item 15)', () => {
  const metricsKey = 'm-metrics-0123456789abcdef0123456789';
  const apiKeys = new Map([[hashApiKey('k-any-0123456789abcdef0123456789abcdef'), new Set([FINANCIAL_ID])]]);

  it('METRICS_KEY: only its holder reads the metrics', async () => {
    const t = await createTestApp({ access: { apiKeys }, metrics: { key: metricsKey } });
    try {
      const base = await listen(t);
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsKey}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('http_requests_total');
    } finally {
      await t.close();
    }
  });

  it('METRICS_PORT: served on that port only', async () => {
    const t = await createTestApp({ access: { apiKeys }, metrics: { separatePort: true } });
    const server = await startMetricsServer(t.app.metricsRegistry, 0, '127.0.0.1');
    try {
      const base = await listen(t);
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      const port = (server.address() as AddressInfo).port;
      const ok = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('process_cpu_seconds_total');
      expect((await fetch(`http://127.0.0.1:${port}/v1/agents`)).status).toBe(404);
    } finally {
      server.close();
      await t.close();
    }
  });
});
