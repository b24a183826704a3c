import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, LOOKUP_HEADERS, type TestApp } from '../../../../testing/test-app';
import { hashApiKey } from '../../../auth/credentials';

// One instance, counters in memory: each correspondent has its own budget, the 429 is the project's
// problem+json with Retry-After, and only the /v1 lookups count.

const COUNTRIES = '/v1/receiving-countries';

describe('rate limit per correspondent', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimit: { max: 3, timeWindowMs: 60_000, perAddressMax: 1000 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 problem+json with Retry-After past the limit, per correspondent', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.get(COUNTRIES)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);

    const limited = await t.get(
      COUNTRIES,
      {},
      { ...LOOKUP_HEADERS, 'x-correlation-id': '11111111-2222-3333-4444-555555555555' },
    );
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

// Issue 12, item 10: the budget is not spent by a mere claim, and one address cannot multiply it.
describe('whose budget a request spends', () => {
  const from = (t: TestApp, remoteAddress: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: COUNTRIES, remoteAddress, headers });

  it("keys off: another address sending a correspondent's id does not use up that correspondent's budget", async () => {
    const t = await createTestApp({ rateLimit: { max: 3, timeWindowMs: 60_000, perAddressMax: 1000 } });
    try {
      for (let i = 0; i < 5; i++) await from(t, '10.0.0.66', LOOKUP_HEADERS);
      expect((await from(t, '10.0.0.66', LOOKUP_HEADERS)).statusCode).toBe(429);
      expect((await from(t, '10.0.0.1', LOOKUP_HEADERS)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('alternating correspondent ids from one address stops at the per-address ceiling', async () => {
    const t = await createTestApp({ rateLimit: { max: 3, timeWindowMs: 60_000, perAddressMax: 5 } });
    try {
      const statuses = [];
      for (let i = 0; i < 8; i++)
        statuses.push((await from(t, '10.0.0.7', { 'x-fapi-financial-id': `AB000${i}` })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      const limited = await from(t, '10.0.0.7', { 'x-fapi-financial-id': 'AB0009' });
      expect(limited.json().detail).toContain('5 lookups per client address');
      expect((await from(t, '10.0.0.8', { 'x-fapi-financial-id': 'AB0009' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('many addresses together stop at the global ceiling', async () => {
    const t = await createTestApp({ rateLimit: { max: 3, timeWindowMs: 60_000, perAddressMax: 3, globalMax: 6 } });
    try {
      const statuses = [];
      for (let i = 0; i < 8; i++) statuses.push((await from(t, `10.0.1.${i}`, LOOKUP_HEADERS)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      expect((await from(t, '10.0.1.99', LOOKUP_HEADERS)).json().detail).toContain('6 lookups for the whole service');
    } finally {
      await t.close();
    }
  });

  it('keys on: the budget is the authenticated key, whichever of its ids it sends and whoever claims them', async () => {
    const key = 'k-rate-0123456789abcdef0123456789abcdef';
    const apiKeys = new Map([[hashApiKey(key), new Set(['AB12CD', 'CD34EF'])]]);
    const t = await createTestApp({
      access: { apiKeys },
      rateLimit: { max: 3, timeWindowMs: 60_000, perAddressMax: 1000, apiKeys },
    });
    try {
      const withKey = (id: string) => ({ 'x-fapi-financial-id': id, authorization: `Bearer ${key}` });
      // Someone without the key claims its ids: refused (401), and only their own address's budget is spent.
      for (let i = 0; i < 5; i++)
        expect((await from(t, '10.0.2.2', LOOKUP_HEADERS)).statusCode).toBe(i < 3 ? 401 : 429);
      const statuses = [];
      for (const id of ['AB12CD', 'CD34EF', 'AB12CD', 'CD34EF'])
        statuses.push((await from(t, '10.0.2.1', withKey(id))).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await t.close();
    }
  });
});
