import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UUID_SHAPED_PATTERN } from '../../../contract';
import type { TestApp } from '../../../testing/test-app';
import { startPortalApi } from '../../testing/portal-api';
import { ApiError, apiGet, newCorrelationId, withQuery } from '../api-client';
import { saveCorrespondentId } from '../correspondent-id';
import { shouldRetry } from '../query-client';

describe('api client against the real API', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startPortalApi();
  });
  afterAll(async () => {
    saveCorrespondentId(null);
    await api.close();
  });

  it('sends the correspondent id and answers with the typed body', async () => {
    saveCorrespondentId('AB12CD');
    const body = await apiGet<{ data: { code: string }[] }>('/v1/receiving-countries');
    expect(body.data.map((c) => c.code)).toContain('BD');
  });

  it('turns a problem+json 400 into an ApiError with the message, each parameter and the correlation id', async () => {
    saveCorrespondentId(null);
    const error = await apiGet('/v1/agents', {
      query: { receivingCountry: 'MX', deliveryMode: '01', search: 'x'.repeat(101) },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.isRetryable).toBe(false);
    expect(apiError.message).toBe('The request has 2 invalid parameters: x-fapi-financial-id, search.');
    expect(apiError.errors.map((e) => e.name)).toEqual(['x-fapi-financial-id', 'search']);
    expect(apiError.correlationId).toMatch(UUID_SHAPED_PATTERN);
    // What the teller reads: a sentence for the problem type, never the API's path.
    expect(apiError.kind).toBe('invalidRequest');
    expect(apiError.sentence).toBe(
      'A value in this search is not accepted by the service. Correct the value named below, or reset the screen.',
    );
  });
});

describe('request building', () => {
  it('leaves out empty parameters, which the API would reject', () => {
    expect(withQuery('/v1/agents', { receivingCountry: 'MX', state: '', search: undefined, pageNumber: 2 })).toBe(
      '/v1/agents?receivingCountry=MX&pageNumber=2',
    );
    expect(withQuery('/v1/types')).toBe('/v1/types');
  });

  it('makes a fresh UUID v4 correlation id per request', () => {
    const ids = new Set(Array.from({ length: 20 }, newCorrelationId));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('retries network errors and 5xx, never 4xx', () => {
    expect(shouldRetry(0, new ApiError('unreachable', 0, 'id'))).toBe(true);
    expect(shouldRetry(0, new ApiError('server', 503, 'id'))).toBe(true);
    expect(shouldRetry(3, new ApiError('server', 500, 'id'))).toBe(false);
    expect(shouldRetry(0, new ApiError('bad', 400, 'id'))).toBe(false);
    expect(shouldRetry(0, new ApiError('missing', 404, 'id'))).toBe(false);
  });
});
