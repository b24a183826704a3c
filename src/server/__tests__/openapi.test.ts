import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { lookupHeaders } from '../../contract';
import { OPERATIONS } from '../routes/v1';
import { OPS_OPERATIONS } from '../routes/v1/ops';
import { createTestApp, type TestApp } from '../../testing/test-app';

// The OpenAPI document is generated from the contract; it must be valid OpenAPI 3.1 and describe every
// endpoint, parameter and error the app serves.
describe('GET /v1/openapi.json', () => {
  let t: TestApp;
  let document: Record<string, any>;
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    document = res.json();
  });
  afterAll(async () => t.close());

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
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '500', '503']));
    expect(operation.responses['400'].content['application/problem+json']).toBeDefined();
  });

  it('tags the extensions beyond the spec, and takes the code in the path', () => {
    const tagged = Object.entries(document.paths as Record<string, { get?: { tags: string[] } }>)
      .filter(([, item]) => item.get?.tags.includes('Extensions'))
      .map(([path]) => path);
    expect(tagged.sort()).toEqual(['/v1/banks/branches/{branchId}', '/v1/banks/browse', '/v1/codes/{code}']);
    const code = document.paths['/v1/codes/{code}'].get.parameters.find((p: { name: string }) => p.name === 'code');
    expect(code).toMatchObject({ in: 'path', required: true, schema: { maxLength: 40 } });
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
    '%s %s is documented with its security',
    (method, path, operation) => {
      const entry = document.paths[path]?.[method.toLowerCase()];
      expect(entry, `${method} ${path}`).toBeDefined();
      expect(entry.tags).toEqual(['Operations desk']);
      const schemes = (entry.security as Record<string, string[]>[]).map((s) => Object.keys(s).sort().join('+'));
      const unsafe = method !== 'GET';
      expect(schemes).toContain(unsafe ? 'csrfToken+opsSession' : 'opsSession');
      if (operation.access !== 'public') expect(schemes).toContain('opsKey');
      expect(Object.keys(entry.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '500']));
      expect(entry.responses['401'].content['application/problem+json']).toBeDefined();
      expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['csrfToken', 'opsKey', 'opsSession']);
    },
  );

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
});
