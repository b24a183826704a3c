import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { FINANCIAL_ID_PATTERN } from '../../../contract';
import { ProblemError } from '../../problems';
import { hashApiKey } from '../../auth/credentials';
import type { RedisDependency } from '../../redis';
import { rateLimitStorage, type RateLimitCounters } from '../../rate-limit-counters';

// Rate limits of the /v1 lookups, three budgets per window, each request counted in all three:
// - per caller: with API keys on, the authenticated key (a claimed correspondent id costs nothing to fake);
//   with keys off, the correspondent id together with the client address, so nobody elsewhere can use up a
//   correspondent's budget by sending its id;
// - per client address, whatever ids it sends (alternating ids does not multiply a budget);
// - for the whole service (with Redis: all instances together).
// With Redis the counters are shared by every instance; without, by the serving threads of this process (one
// table in shared memory, rate-limit-counters.ts). Redis slow or down: served without counting (the
// limit protects the service, it is not the service), each call bounded and skipped while the breaker is open.

export interface RateLimitOptions {
  /** Lookups allowed per caller per window; 0 turns every limit off. */
  max: number;
  timeWindowMs: number;
  /** Lookups allowed per client address per window (RATE_LIMIT_PER_ADDRESS_MAX); default 2 × max. */
  perAddressMax?: number;
  /** Lookups allowed for the whole service per window (RATE_LIMIT_GLOBAL_MAX); default 50 × max. */
  globalMax?: number;
  /** Counters live here when given (several instances); in this process's memory otherwise. */
  redis?: RedisDependency;
  /** This process's counters, shared by its serving threads (app.ts hands them on); without Redis. */
  counters?: RateLimitCounters;
  /** Prefix of the counters' Redis keys (REDIS_KEY_PREFIX), so several services or test runs share one Redis. */
  keyPrefix?: string;
  /** The API keys (hash → correspondent ids) when keys are on: the caller is then the key. */
  apiKeys?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Requests that are not a client's (the search index's warm-up, app.inject in this process): not counted. */
  skip?: (request: FastifyRequest) => boolean;
}

/** Only the /v1 lookups are limited: not the portal's files, the OpenAPI document or the API reference. */
export function isRateLimited(url: string): boolean {
  const path = url.split('?')[0];
  return path.startsWith('/v1/') && path !== '/v1/openapi.json' && !path.startsWith('/v1/docs');
}

function bearerKey(request: FastifyRequest): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** Whose budget a request spends (see the top of this file). */
export function callerKey(request: FastifyRequest, apiKeys?: ReadonlyMap<string, ReadonlySet<string>>): string {
  if (apiKeys) {
    const key = bearerKey(request);
    const hash = key === undefined ? undefined : hashApiKey(key);
    // An unknown key is refused (401) anyway; it spends its address's budget meanwhile.
    return hash !== undefined && apiKeys.has(hash) ? `key:${hash.slice(0, 32)}` : `ip:${request.ip}`;
  }
  const id = request.headers['x-fapi-financial-id'];
  return typeof id === 'string' && FINANCIAL_ID_PATTERN.test(id)
    ? `correspondent:${id}@${request.ip}`
    : `ip:${request.ip}`;
}

type Counted = { isExceeded?: boolean; max?: number; remaining?: number; ttlInSeconds?: number };

async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions) {
  if (options.max === 0) return;
  const perAddressMax = options.perAddressMax ?? options.max * 2;
  const globalMax = options.globalMax ?? options.max * 50;
  await app.register(rateLimit, {
    global: false,
    max: options.max,
    timeWindow: options.timeWindowMs,
    ...rateLimitStorage(`${options.keyPrefix ?? ''}rate-limit:`, options.redis?.redis, options.counters),
    // Failures reach the hook below, which serves without counting and feeds the circuit breaker.
    skipOnError: false,
  });
  const limiter = (max: number, key: (request: FastifyRequest) => string) => {
    const count = app.createRateLimit({ max, timeWindow: options.timeWindowMs, keyGenerator: key });
    return async (request: FastifyRequest) => (await count(request)) as Counted;
  };
  const budgets = [
    {
      name: 'per caller',
      max: options.max,
      check: limiter(options.max, (r) => `caller:${callerKey(r, options.apiKeys)}`),
    },
    { name: 'per client address', max: perAddressMax, check: limiter(perAddressMax, (r) => `address:${r.ip}`) },
    { name: 'for the whole service', max: globalMax, check: limiter(globalMax, () => 'service') },
  ];
  const countAll = (request: FastifyRequest) => Promise.all(budgets.map((budget) => budget.check(request)));

  app.addHook('onRequest', async (request, reply) => {
    if (!isRateLimited(request.url) || options.skip?.(request)) return;
    let results;
    try {
      results = options.redis ? await options.redis.breaker.run(() => countAll(request)) : await countAll(request);
    } catch (error) {
      // Redis slow, down or its breaker open: serve without counting (README, "Security and operations").
      request.log.warn({ err: error }, 'rate limit not counted');
      return;
    }
    const caller = results[0];
    reply.header('x-ratelimit-limit', String(options.max));
    reply.header('x-ratelimit-remaining', String(caller.remaining ?? options.max));
    reply.header('x-ratelimit-reset', String(caller.ttlInSeconds ?? 0));
    const exceeded = budgets.map((budget, i) => ({ ...budget, result: results[i] })).filter((b) => b.result.isExceeded);
    if (exceeded.length === 0) return;
    const retryAfter = Math.max(1, ...exceeded.map((b) => b.result.ttlInSeconds ?? 1));
    throw new ProblemError(
      'tooManyRequests',
      `Rate limit exceeded: ${exceeded.map((b) => `${b.max} lookups ${b.name === 'per caller' ? 'per correspondent' : b.name}`).join(', ')} per ${Math.round(options.timeWindowMs / 1000)} s; retry in ${retryAfter} s.`,
      [],
      { 'retry-after': String(retryAfter) },
    );
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
