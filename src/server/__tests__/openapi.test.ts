import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { lookupHeaders } from '../../contract';
import { OPERATIONS } from '../routes/v1';
import { OPS_OPERATIONS } from '../routes/v1/ops';
import { hashApiKey } from '../auth/credentials';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { createTestApp, FINANCIAL_ID, LOOKUP_HEADERS, type TestApp } from '../../testing/test-app';
import { createOpsAccount, signIn } from '../../testing/ops';
import { documentSchemaValidator, expectDocumented, OWN_HEADERS } from '../../testing/openapi-check';

// The OpenAPI document is generated from the contract; it must be valid OpenAPI 3.1 and describe every
// endpoint, parameter, status and header the app serves. Every answer of a test app (src/testing/test-app.ts)
// is held to it as it comes (src/testing/openapi-check.ts); the live tests below make the answers that are
// rare elsewhere.

type Json = Record<string, any>;

describe('GET /v1/openapi.json', () => {
  let t: TestApp;
  let document: Json;
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    document = res.json();
  });
  afterAll(async () => t.close());

  const everyOperation = () =>
    Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );
  const headerOf = (response: Json, name: string): Json | undefined => {
    const entry = Object.entries((response.headers ?? {}) as Record<string, Json>).find(
      ([key]) => key.toLowerCase() === name,
    )?.[1];
    return entry?.$ref ? document.components.headers[entry.$ref.split('/').pop()] : entry;
  };

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  // The operation list the routes and the document are made from (routes/v1): each must come out with its
  // parameters.
  const operations = OPERATIONS.map((operation) => [operation.path, operation.query] as const);

  it.each(operations)('%s lists its parameters, headers and errors', (path, query) => {
    const operation = document.paths[path]?.get;
    expect(operation, path).toBeDefined();
    const parameters = (operation.parameters as { name: string; in: string; required?: boolean }[]).map(
      (p) => `${p.in}:${p.name}`,
    );
    for (const name of Object.keys(query.shape)) expect(parameters).toContain(`query:${name}`);
    for (const name of Object.keys(lookupHeaders.shape)) expect(parameters).toContain(`header:${name}`);
    expect(operation.parameters.find((p: { name: string }) => p.name === 'x-fapi-financial-id').required).toBe(true);
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '414', '429', '500', '503']),
    );
    expect(operation.responses['400'].content['application/problem+json']).toBeDefined();
  });

  it('tags the extensions beyond the spec, and takes the code in the path', () => {
    const tagged = Object.entries(document.paths as Record<string, { get?: { tags: string[] } }>)
      .filter(([, item]) => item.get?.tags.includes('Extensions'))
      .map(([path]) => path);
    expect(tagged.sort()).toEqual([
      '/v1/banks/branches/{branchId}',
      '/v1/banks/browse',
      '/v1/codes/{code}',
      '/v1/suggestions/agents',
      '/v1/suggestions/branches',
    ]);
    const code = document.paths['/v1/codes/{code}'].get.parameters.find((p: { name: string }) => p.name === 'code');
    expect(code).toMatchObject({ in: 'path', required: true, schema: { minLength: 1, maxLength: 40 } });
  });

  it('describes integer parameters as int32 with their limits', () => {
    const parameters = document.paths['/v1/agents'].get.parameters as {
      name: string;
      schema: Record<string, unknown>;
    }[];
    expect(parameters.find((p) => p.name === 'pageSize')!.schema).toMatchObject({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 1000,
    });
    expect(parameters.find((p) => p.name === 'pageNumber')!.schema).toMatchObject({
      type: 'integer',
      maximum: 2147483647,
    });
  });

  // The operations desk (routes/v1/ops): each operation under its method, with its security and errors.
  it.each(OPS_OPERATIONS.map((o) => [o.method, o.path, o] as const))(
    '%s %s is documented with its security and statuses',
    (method, path, operation) => {
      const entry = document.paths[path]?.[method.toLowerCase()];
      expect(entry, `${method} ${path}`).toBeDefined();
      expect(entry.tags).toEqual(['Operations desk']);
      const schemes = (entry.security as Record<string, string[]>[]).map((s) => Object.keys(s).sort().join('+'));
      const unsafe = method !== 'GET';
      expect(schemes).toContain(unsafe ? 'csrfToken+opsSession' : 'opsSession');
      if (operation.access !== 'public') expect(schemes).toContain('opsKey');
      const success = String(operation.status ?? (operation.response === null ? 204 : 200));
      const declared = [
        success,
        '400',
        '401',
        '403',
        '414',
        '429',
        '500',
        '503',
        ...(operation.errors ?? []).map((e) => String(e.status)),
      ];
      expect(Object.keys(entry.responses).sort()).toEqual([...new Set(declared)].sort());
      expect(entry.responses['401'].content['application/problem+json']).toBeDefined();
      // A by-id operation declares what it answers for an id that is not there.
      if (path.includes('{id}') || path.includes('{name}')) expect(Object.keys(entry.responses)).toContain('404');
    },
  );

  it('the uploads declare 413 and 415', () => {
    for (const path of ['/v1/ops/changes', '/v1/ops/files/detect']) {
      expect(Object.keys(document.paths[path].post.responses)).toEqual(expect.arrayContaining(['413', '415']));
    }
  });

  it('GET /v1/banks/branches/{branchId} declares its 404, naming the data version it looked in', () => {
    const notFound = document.paths['/v1/banks/branches/{branchId}'].get.responses['404'];
    expect(notFound.content['application/problem+json']).toBeDefined();
    expect(headerOf(notFound, 'x-data-version')).toMatchObject({ required: true });
  });

  it('every operation has an operationId, unique in the document', () => {
    const ids = everyOperation().map(({ operation }) => operation.operationId as string);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares the headers it sends: x-correlation-id on every answer, Retry-After on every 429 and 503, x-data-version on the searches', () => {
    for (const { path, method, operation } of everyOperation()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        const where = `${method} ${path} ${status}`;
        expect(headerOf(response, 'x-correlation-id'), where).toMatchObject({ required: true });
        expect(headerOf(response, 'x-idempotency-key'), where).toBeDefined();
        if (status === '429' || status === '503') {
          expect(headerOf(response, 'retry-after'), where).toMatchObject({
            required: true,
            schema: { type: 'integer' },
          });
        }
      }
    }
    for (const operation of OPERATIONS) {
      const answer = document.paths[operation.path].get.responses['200'];
      expect(headerOf(answer, 'x-data-version') !== undefined, operation.path).toBe(operation.dataVersion === true);
    }
    for (const path of ['/v1/agents', '/v1/banks/branches', '/v1/codes/{code}', '/v1/banks/browse']) {
      expect(headerOf(document.paths[path].get.responses['200'], 'x-data-version'), path).toMatchObject({
        required: true,
      });
    }
    for (const path of ['/v1/receiving-countries', '/v1/types', '/v1/states', '/v1/cities']) {
      const { responses, parameters } = document.paths[path].get;
      expect(headerOf(responses['200'], 'etag'), path).toBeDefined();
      expect(headerOf(responses['304'], 'etag'), path).toBeDefined();
      expect(parameters.map((p: Json) => p.name)).toContain('if-none-match');
    }
  });

  it("the teller lookups' optional Bearer key is a security scheme, and its 401 carries the challenge", () => {
    expect(document.components.securitySchemes.tellerKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const operation of OPERATIONS) {
      const entry = document.paths[operation.path].get;
      // Either no key (API keys off) or the key: optional.
      expect(entry.security, operation.path).toEqual([{}, { tellerKey: [] }]);
      expect(headerOf(entry.responses['401'], 'www-authenticate'), operation.path).toBeDefined();
    }
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'csrfToken',
      'metricsKey',
      'opsKey',
      'opsSession',
      'tellerKey',
    ]);
  });

  it('closed sets are enums and patterns refuse what the server refuses (/v1/types filter, /v1/codes/{code})', () => {
    const schemaOf = (path: string, name: string) =>
      document.paths[path].get.parameters.find((p: Json) => p.name === name).schema as Json;
    expect(schemaOf('/v1/types', 'filter').enum).toEqual(['delivery-modes']);
    const filter = documentSchemaValidator(schemaOf('/v1/types', 'filter'));
    expect(filter('delivery-modes')).toBe(true);
    expect(filter('foo')).toBe(false);
    const code = documentSchemaValidator(schemaOf('/v1/codes/{code}', 'code'));
    for (const blank of ['', ' ', '\t', '   \t ']) expect(code(blank), JSON.stringify(blank)).toBe(false);
    expect(code('abhy 0065 002')).toBe(true);
    const search = documentSchemaValidator(schemaOf('/v1/agents', 'search'));
    expect(search('OXXO')).toBe(true);
    expect(search('a\u0000b')).toBe(false);
  });

  it('lists the service endpoints: /healthz, /readyz, /metrics and itself, with no correspondent header', () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/v1/openapi.json']) {
      const entry = document.paths[path]?.get;
      expect(entry, path).toBeDefined();
      expect(entry.tags).toEqual(['Service']);
      expect(entry.parameters ?? []).toEqual([]);
      expect(entry.responses['200'].content, path).toBeDefined();
    }
    expect(Object.keys(document.paths['/readyz'].get.responses)).toContain('503');
    expect(document.paths['/healthz'].get.security).toEqual([]);
  });

  it('every path the app routes under /v1 is in the document', () => {
    for (const [path, item] of Object.entries(document.paths as Record<string, object>)) {
      for (const method of Object.keys(item)) {
        const url = path.replace(/\{(\w+)\}/g, ':$1');
        expect(t.app.hasRoute({ method: method.toUpperCase() as 'GET', url }), `${method} ${path}`).toBe(true);
      }
    }
  });

  it('serves a browsable API reference', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/swagger/i);
  });

  // The document's parameter schemas against the contract's (what the server checks before its rules of
  // meaning, which need the served data): a value one accepts, the other accepts.
  describe('its parameters accept exactly what the contract accepts', () => {
    const SAMPLES = [
      '',
      ' ',
      '\t',
      'delivery-modes',
      'DELIVERY-MODES',
      'foo',
      'IN',
      'in',
      'MEX',
      'MH',
      'BRACBD',
      'BRAC',
      'abhy0065002',
      'abhy 0065 002',
      '!!',
      ' !',
      '04',
      '0',
      '00000000000000000000001',
      '1001',
      '2147483647',
      '2147483648',
      '99999999999999999999',
      '1.5',
      '1e3',
      '+1',
      '-1',
      ' 1',
      '１',
      'IN-SBIN0000300',
      'AB12CD',
      'ab12cd',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      'x'.repeat(40),
      'x'.repeat(41),
      'x'.repeat(100),
      'x'.repeat(101),
      '😀'.repeat(60),
      '😀'.repeat(101),
      'a\u0000b',
      'a\u007fb',
      'a\u0085b',
      'é'.repeat(100),
      "' OR '1'='1",
    ];
    const value = fc.oneof(
      fc.constantFrom(...SAMPLES),
      fc.string({ unit: 'grapheme', maxLength: 120 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.stringMatching(/^[A-Za-z0-9 \t-]{0,45}$/),
      fc.stringMatching(/^[0-9]{0,12}$/),
    );

    const cases = OPERATIONS.flatMap((operation) => {
      const sources: [string, z.ZodObject | undefined][] = [
        ['query', operation.query],
        ['path', operation.params],
        ['header', lookupHeaders],
      ];
      return sources.flatMap(([where, schema]) =>
        Object.entries(schema?.shape ?? {}).map(
          ([name, field]) => [`${operation.path} ${where} ${name}`, operation.path, where, name, field] as const,
        ),
      );
    });

    it.each(cases)('%s', (_label, path, where, name, field) => {
      const parameter = (document.paths[path].get.parameters as Json[]).find((p) => p.in === where && p.name === name);
      expect(parameter, `${where} ${name}`).toBeDefined();
      const schema = parameter!.schema as Json;
      const documented = documentSchemaValidator(schema);
      // An integer parameter is written in digits; anything else is no integer to the document.
      const documentAccepts = (text: string) =>
        schema.type === 'integer' ? /^-?[0-9]+$/.test(text) && documented(Number(text)) : documented(text);
      fc.assert(
        fc.property(value, (text) => {
          const server = (field as z.ZodType).safeParse(text).success;
          expect(documentAccepts(text), `${JSON.stringify(text)}: the contract says ${server}`).toBe(server);
        }),
        { numRuns: 400, examples: SAMPLES.map((sample) => [sample]) },
      );
    });
  });
});

// Answers the document left out, made live: each goes through the test app's inject, which holds it to the
// document (status declared, headers declared, body of the declared schema).
describe('answers held to the document', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-openapi-'));
    t = await createTestApp({ uploads: { dir: join(dir, 'uploads'), maxBytes: 64 } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('404 of GET /v1/banks/branches/{branchId} for an id the data does not hold, with x-data-version', async () => {
    const res = await t.get('/v1/banks/branches/IN-NOPE0000000');
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-data-version']).toMatch(/.+/);
    const found = await t.get('/v1/banks/branches/IN-ABHY0065002');
    expect(found.statusCode).toBe(200);
  });

  it('304 of a reference list for its ETag, with the ETag', async () => {
    const first = await t.get('/v1/types', { filter: 'delivery-modes' });
    const again = await t.get(
      '/v1/types',
      { filter: 'delivery-modes' },
      { ...LOOKUP_HEADERS, 'if-none-match': String(first.headers.etag) },
    );
    expect(again.statusCode).toBe(304);
  });

  it('400 for filter=foo and for a blank code, as the document says', async () => {
    expect((await t.get('/v1/types', { filter: 'foo' })).statusCode).toBe(400);
    expect((await t.get('/v1/codes/%20%20')).statusCode).toBe(400);
  });

  it('414 for an over-long request target', async () => {
    expect((await t.get('/v1/agents', { search: 'x'.repeat(9000) })).statusCode).toBe(414);
  });

  it('the service endpoints: /healthz, /readyz, /metrics, /v1/openapi.json', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/v1/openapi.json']) {
      expect((await t.app.inject({ method: 'GET', url: path })).statusCode, path).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/healthz?%zz' })).statusCode).toBe(400);
  });

  it('413 and 415 of an upload, 404 of a change that is not there', async () => {
    await createOpsAccount(t.app, 'maker', ['maker']);
    const maker = await signIn(t.app, 'maker');
    const boundary = '----rpl-openapi-boundary';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nbranches\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n` +
      `${'x'.repeat(1000)}\r\n--${boundary}--\r\n`;
    const tooLarge = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/changes',
      headers: { ...maker.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(tooLarge.statusCode).toBe(413);
    const notMultipart = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/changes',
      headers: { ...maker.headers, 'content-type': 'text/plain' },
      payload: 'kind=branches',
    });
    expect(notMultipart.statusCode).toBe(415);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/v1/ops/changes/no-such-change',
      headers: { cookie: maker.cookie },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('401 with WWW-Authenticate, 403 and 200 when API keys are on', async () => {
    const key = 'k-openapi-0123456789abcdef0123456789abcdef';
    const keyed = await createTestApp({ access: { apiKeys: new Map([[hashApiKey(key), new Set([FINANCIAL_ID])]]) } });
    try {
      const missing = await keyed.get('/v1/receiving-countries');
      expect(missing.statusCode).toBe(401);
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer /);
      const other = await keyed.get(
        '/v1/receiving-countries',
        {},
        {
          'x-fapi-financial-id': 'ZZ9999',
          authorization: `Bearer ${key}`,
        },
      );
      expect(other.statusCode).toBe(403);
      const ok = await keyed.get('/v1/receiving-countries', {}, { ...LOOKUP_HEADERS, authorization: `Bearer ${key}` });
      expect(ok.statusCode).toBe(200);
    } finally {
      await keyed.close();
    }
  });

  it('429 with Retry-After and the x-ratelimit-* headers', async () => {
    const limited = await createTestApp({ rateLimit: { max: 1, timeWindowMs: 60_000 } });
    try {
      const first = await limited.get('/v1/receiving-countries');
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-ratelimit-limit']).toBe('1');
      const second = await limited.get('/v1/receiving-countries');
      expect(second.statusCode).toBe(429);
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('503 with Retry-After from /readyz while the store holds no data set', async () => {
    const empty = await createTestApp({ store: SqliteStore.open(join(dir, 'empty.sqlite')) });
    try {
      const res = await empty.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      await empty.close();
    }
  });
});

// The check itself: it must refuse what the document does not say, or the tests above prove nothing.
describe('the check of answers against the document', () => {
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const headers = { 'content-type': 'application/json; charset=utf-8', 'x-correlation-id': crypto.randomUUID() };
  const agents = { data: [], pagination: { pageNumber: 1, pageSize: 50, totalItems: 0, totalPages: 0 } };
  const answer = (status: number, extra: Record<string, string> = {}, body: unknown = agents) => ({
    method: 'GET',
    url: '/v1/agents?receivingCountry=MX&deliveryMode=1',
    status,
    headers: { ...headers, 'x-data-version': 'v1', ...extra },
    body: json(body),
  });

  it('passes a well-formed answer', () => {
    expect(() => expectDocumented(answer(200))).not.toThrow();
  });

  it('refuses an undeclared status, an undeclared or missing header, a body off its schema', () => {
    expect(() => expectDocumented(answer(404))).toThrow(/status is not declared/);
    expect(() => expectDocumented(answer(200, { 'retry-after': '5' }))).toThrow(/retry-after is sent but not declared/);
    const { 'x-data-version': _dropped, ...without } = answer(200).headers;
    expect(() => expectDocumented({ ...answer(200), headers: without })).toThrow(/required header x-data-version/);
    expect(() => expectDocumented(answer(200, {}, { data: 1 }))).toThrow(/does not match the schema/);
    expect(() => expectDocumented({ ...answer(200), headers: { ...headers, 'content-type': 'text/html' } })).toThrow(
      /media type/,
    );
    expect(() => expectDocumented({ ...answer(200, { 'x-correlation-id': 'not a uuid' }) })).toThrow(
      /header x-correlation-id/,
    );
  });

  it('checks the headers the project defines', () => {
    expect(OWN_HEADERS).toEqual(expect.arrayContaining(['x-data-version', 'retry-after', 'x-correlation-id']));
  });
});
