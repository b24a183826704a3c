import { request as httpRequest, Agent } from 'node:http';
import fc from 'fast-check';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliveResponse, MAX_INT32, MAX_TEXT_LENGTH, problem, readyResponse } from '../../contract';
import { createTestApp, FINANCIAL_ID, type TestApp } from '../../testing/test-app';
import { expectDocumented } from '../../testing/openapi-check';
import { DEFAULT_LIMITS } from '../plugins/app/limits';
import { OPERATIONS, type OperationPath } from '../routes/v1';

// Property-based suite: generated query strings and headers against every endpoint. Whatever is sent, the
// answer is 200 with a body valid against the endpoint's contract, or a 400 problem (404 on unknown
// paths, 414 past the documented URL limit), never a 500 and never a hang; and every answer holds to the
// OpenAPI document (status, headers, body: src/testing/openapi-check.ts, through the test app's inject and here
// over HTTP).

interface Endpoint {
  path: string;
  parameters: string[];
  response: z.ZodType;
  /** A valid query, so generated variations start near the accepted region, not only in the rejected one. */
  valid: Record<string, string>;
}

/**
 * A valid query of every lookup operation, so generated variations start near the accepted region, not only in
 * the rejected one. Keyed by the operation list (routes/v1): a new operation without one does not compile.
 */
const VALID: Record<OperationPath, Record<string, string>> = {
  '/v1/agents': { receivingCountry: 'MX', deliveryMode: '1', search: 'OXXO' },
  '/v1/payout-networks': { receivingCountry: 'BD', deliveryMode: '4' },
  '/v1/banks/branches': { receivingCountry: 'BD', deliveryMode: '04', receivingAgentHeadOfficeCode: 'BRACBD' },
  '/v1/receiving-countries': {},
  '/v1/types': { filter: 'delivery-modes' },
  '/v1/states': { receivingCountry: 'IN' },
  '/v1/cities': { receivingCountry: 'IN', state: 'MH' },
  '/v1/data-status': {},
  '/v1/codes/{code}': {},
  '/v1/banks/branches/{branchId}': {},
  '/v1/banks/browse': { receivingCountry: 'BD', deliveryMode: '04', receivingAgentHeadOfficeCode: 'BRACBD' },
  '/v1/suggestions/agents': { receivingCountry: 'MX', deliveryMode: '1', search: 'oxxo' },
  '/v1/suggestions/branches': { receivingCountry: 'NG', deliveryMode: '4', receivingAgentHeadOfficeCode: 'ACCSNG' },
};

// The /v1 operations (routes/v1: the routes and the API reference are made from the same list), and the two
// operations endpoints outside it.
const ENDPOINTS: Endpoint[] = [
  ...OPERATIONS.map((operation) => ({
    // A path parameter gets a real code: the generated variations are of the query.
    path: operation.path.replace('{code}', 'ABHY0065002').replace('{branchId}', 'IN-ABHY0065002'),
    parameters: Object.keys(operation.query.shape),
    response: operation.response as z.ZodType,
    valid: VALID[operation.path],
  })),
  { path: '/healthz', parameters: [], response: aliveResponse, valid: {} },
  { path: '/readyz', parameters: [], response: readyResponse, valid: {} },
];

// ---------------------------------------------------------------------------------------------------------
// Generators

const SQL_AND_PATTERNS = [
  "' OR '1'='1",
  "'; DROP TABLE agents; --",
  '" OR ""="',
  '1; SELECT * FROM sqlite_master',
  "') UNION SELECT sql FROM sqlite_master --",
  '%',
  '%%',
  '_',
  '%_%',
  '\\%',
  '*',
  '?',
  '[a-z]*',
  '[^]',
  'a%b_c',
  'ESCAPE',
  "%' ESCAPE '\\",
  'GLOB',
  '\\',
  '$1',
  ':name',
  '@p',
];
const NUMBERS = [
  '0',
  '1',
  '4',
  '04',
  '004',
  '50',
  '999',
  '1000',
  '1001',
  String(MAX_INT32),
  String(MAX_INT32 + 1),
  '99999999999999999999999',
  '-1',
  '-0',
  '+1',
  '1.0',
  '1e3',
  '0x10',
  ' 4',
  '4 ',
  '１',
  'NaN',
  'Infinity',
  '',
  '00000000000000000000001',
];
const CODES = [
  'MX',
  'BD',
  'IN',
  'NG',
  'PH',
  'US',
  'mx',
  'XX',
  'M',
  'MEX',
  'BRACBD',
  'OXXOMX',
  'MH',
  'DHA',
  '13',
  'delivery-modes',
  'DELIVERY-MODES',
];

/** Characters a person, a broken client or an attacker might put in a value. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 8 }),
  fc.constantFrom(...SQL_AND_PATTERNS, ...NUMBERS, ...CODES),
  fc.integer({ min: MAX_TEXT_LENGTH - 2, max: 1_000 }).map((n) => 'x'.repeat(n)),
  fc.nat({ max: 150 }).chain((n) => fc.string({ unit: 'grapheme', minLength: n, maxLength: n + 5 })),
);

/** A value as it travels in the query string: well-encoded, or one of the encodings that break decoders. */
const encodedValue = fc.oneof(
  { weight: 6, arbitrary: text.map(encodeComponent) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%',
      '%2',
      '%G1',
      '%zz',
      '%%41',
      '%E2%82',
      '%C3',
      '%FF%FE',
      '%ED%A0%80',
      '%ED%BF%BF',
      '%F4%90%80%80',
      '%C0%AF',
      '%00',
      '%0A%0D',
      '%25',
      '+',
      '%2B',
      '%20',
      '=',
      '%3D',
      '&',
      '%26',
      '%u0041',
      '%uD800',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(text, text).map(([a, b]) => `${encodeComponent(a)}%${encodeComponent(b).slice(0, 1)}`),
  },
);

/** encodeURIComponent that also carries lone surrogates (as the bytes a careless encoder would send). */
function encodeComponent(value: string): string {
  return value.replace(/[\s\S]/gu, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      const unit = ch.charCodeAt(0);
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    }
  });
}

const parameterName = (endpoint: Endpoint) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: endpoint.parameters.length ? fc.constantFrom(...endpoint.parameters) : fc.constant('unknown'),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeComponent) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '__proto__',
        'constructor',
        'toString',
        'pageSize[]',
        'pageSize[0]',
        'a.b',
        '',
        'receivingcountry',
        'DeliveryMode',
      ),
    },
  );

/** A query string: the endpoint's valid query, then some parameters changed, added, repeated or unknown. */
const queryString = (endpoint: Endpoint) =>
  fc
    .record({
      keepValid: fc.boolean(),
      pairs: fc.array(fc.tuple(parameterName(endpoint), encodedValue, fc.boolean()), { maxLength: 6 }),
    })
    .map(({ keepValid, pairs }) => {
      const parts = keepValid ? Object.entries(endpoint.valid).map(([k, v]) => `${k}=${encodeURIComponent(v)}`) : [];
      for (const [name, value, bare] of pairs) parts.push(bare && value === '' ? name : `${name}=${value}`);
      return parts.join('&');
    });

/** Header values: only bytes HTTP allows in a field value (tab, visible ASCII, obs-text). */
const headerText = fc
  .oneof(
    fc.string({
      unit: fc.constantFrom('\t', ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)), 'é', 'ÿ'),
      maxLength: 60,
    }),
    fc.constantFrom(
      FINANCIAL_ID,
      'ab12cd',
      'AB12C',
      'AB12CDE',
      '000000',
      'ZZZZZZ',
      "AB12CD' OR 1=1",
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '0f8fad5b_d9cb_469f_a165_70867728950e',
      '',
    ),
    // Long, yet five of them stay within MAX_HEADER_SIZE (its 431 is asserted in security.test.ts).
    fc.integer({ min: 100, max: 2_500 }).map((n) => 'A'.repeat(n)),
  )
  .map((value) => value.trim());

const headers = fc.record(
  {
    'x-fapi-financial-id': fc.oneof(
      { weight: 3, arbitrary: fc.constant(FINANCIAL_ID) },
      { weight: 2, arbitrary: headerText },
    ),
    'x-correlation-id': headerText,
    'x-idempotency-key': headerText,
    authorization: headerText,
    'x-unknown': headerText,
  },
  { requiredKeys: [] },
);

const unknownPath = fc.oneof(
  fc.constantFrom(
    '/v1',
    '/v1/',
    '/v1/agent',
    '/v1/banks',
    '/v1/banks/branches/1/x',
    '/v2/agents',
    '/V1/agents',
    '/v1/../etc/passwd',
    '/v1/%2e%2e/agents',
    '/v1/agents%00',
    '/.env',
    '/v1/docs/../../x',
  ),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => `/v1/x${encodeComponent(s)}`),
);

// ---------------------------------------------------------------------------------------------------------
// Checks

const statusCounts = new Map<number, number>();
let requestCount = 0;

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** The property: the answer fits the contract for what was asked. */
function checkAnswer(path: string, url: string, answer: Answer, known: Endpoint | undefined) {
  requestCount++;
  statusCounts.set(answer.status, (statusCounts.get(answer.status) ?? 0) + 1);
  const context = `${answer.status} for GET ${url.slice(0, 300)}: ${answer.body.slice(0, 300)}`;
  if (Buffer.byteLength(url, 'latin1') > DEFAULT_LIMITS.maxUrlLength) {
    expect(answer.status, context).toBe(414);
  } else if (!known) {
    expect(answer.status, context).toBe(404);
  } else {
    expect([200, 400], context).toContain(answer.status);
  }
  const body = JSON.parse(answer.body);
  if (answer.status === 200) {
    expect(answer.contentType, context).toMatch(/^application\/json/);
    const parsed = known!.response.safeParse(body);
    expect(parsed.success, `${context}\n${parsed.error?.message}`).toBe(true);
  } else {
    expect(answer.contentType, context).toMatch(/^application\/problem\+json/);
    const parsed = problem.safeParse(body);
    expect(parsed.success, context).toBe(true);
    expect(parsed.data!.status, context).toBe(answer.status);
    expect(parsed.data!.correlationId, context).not.toBe('');
  }
  void path;
}

/** Rejects when an answer does not come within the time: a hang is a failure, not a stuck suite. */
function withinTime<T>(promise: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
  ]);
}

// ---------------------------------------------------------------------------------------------------------

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  const byStatus = [...statusCounts]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  console.log(`property suite: ${requestCount} generated requests (${byStatus})`);
});

const RUNS_PER_ENDPOINT = 1_000;

describe('generated requests (app.inject)', () => {
  for (const endpoint of ENDPOINTS) {
    it(`GET ${endpoint.path}: 200 with a valid body or a 400 problem`, async () => {
      await fc.assert(
        fc.asyncProperty(queryString(endpoint), headers, async (query, given) => {
          const url = query ? `${endpoint.path}?${query}` : endpoint.path;
          const response = await withinTime(
            t.app.inject({ method: 'GET', url, headers: given as Record<string, string> }),
          );
          checkAnswer(
            endpoint.path,
            url,
            { status: response.statusCode, contentType: String(response.headers['content-type']), body: response.body },
            endpoint,
          );
        }),
        { numRuns: RUNS_PER_ENDPOINT },
      );
    }, 120_000);
  }

  it('unknown paths: a 404 problem', async () => {
    await fc.assert(
      fc.asyncProperty(unknownPath, fc.option(queryString(ENDPOINTS[0])), headers, async (path, query, given) => {
        const url = query ? `${path}?${query}` : path;
        const response = await withinTime(
          t.app.inject({ method: 'GET', url, headers: given as Record<string, string> }),
        );
        const known = ENDPOINTS.find((e) => e.path === new URL(url, 'http://x').pathname);
        // Paths that normalise onto an endpoint (e.g. /v1/%2e%2e/agents) must still answer 200/400/404, never 500.
        if (known) expect([200, 400, 404]).toContain(response.statusCode);
        checkAnswer(
          path,
          url,
          { status: response.statusCode, contentType: String(response.headers['content-type']), body: response.body },
          known && response.statusCode !== 404 ? known : undefined,
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('generated requests over real HTTP', () => {
  let port = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => agent.destroy());

  /**
   * node:http sends the request target byte for byte, so broken %-escapes reach the server as generated. Each
   * answer is held to the OpenAPI document as it arrives, as the test app's inject does for the suite above.
   */
  const get = (url: string, given: Record<string, string>) =>
    new Promise<Answer>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: url, headers: given, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          const status = response.statusCode ?? 0;
          try {
            expectDocumented({ method: 'GET', url, status, headers: response.headers, body });
          } catch (error) {
            reject(error as Error);
            return;
          }
          resolve({ status, contentType: String(response.headers['content-type']), body: body.toString('utf8') });
        });
      });
      request.on('error', reject);
      request.end();
    });

  it('every endpoint: the same properties through the HTTP parser', async () => {
    const endpoint = fc.constantFrom(...ENDPOINTS);
    await fc.assert(
      fc.asyncProperty(
        endpoint.chain((e) => fc.tuple(fc.constant(e), queryString(e), headers)),
        async ([e, query, given]) => {
          const url = query ? `${e.path}?${query}` : e.path;
          checkAnswer(e.path, url, await withinTime(get(url, given as Record<string, string>)), e);
        },
      ),
      { numRuns: 1_500 },
    );
  }, 300_000);
});
