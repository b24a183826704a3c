import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, LOOKUP_HEADERS, type TestApp } from '../../../../testing/test-app';

// One instance, counters in memory: each correspondent has its own budget, the 429 is the project's
// problem+json with Retry-After, and only the /v1 lookups count.

const COUNTRIES = '/v1/receiving-countries';

describe('rate limit per correspondent', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 problem+json with Retry-After past the limit, per correspondent', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.get(COUNTRIES)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);

    const limited = await t.get(COUNTRIES, {}, { ...LOOKUP_HEADERS, 'x-correlation-id': '11111111-2222-3333-4444-555555555555' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({
      type: 'urn:problem:too-many-requests',
      title: 'Too many requests',
      status: 429,
      detail: expect.stringContaining('3 lookups per correspondent'),
      correlationId: '11111111-2222-3333-4444-555555555555',
      errors: [],
    });

    // Another correspondent has its own budget.
    expect((await t.get(COUNTRIES, {}, { 'x-fapi-financial-id': 'ZZ9999' })).statusCode).toBe(200);
  });

  it('does not count the OpenAPI document or the API reference', async () => {
    const headers = { 'x-fapi-financial-id': 'QQ0001' };
    for (let i = 0; i < 5; i++) expect((await t.get('/v1/openapi.json', {}, headers)).statusCode).toBe(200);
    expect((await t.get(COUNTRIES, {}, headers)).statusCode).toBe(200);
  });

  it('limits requests without a correspondent id by client address', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.get(COUNTRIES, {}, {})).statusCode);
    // Missing header is a 400 while within the budget, then 429.
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});

it('is off with a limit of 0', async () => {
  const t = await createTestApp({ rateLimit: { max: 0, timeWindowMs: 1000 } });
  try {
    for (let i = 0; i < 20; i++) expect((await t.get(COUNTRIES)).statusCode).toBe(200);
  } finally {
    await t.close();
  }
});
