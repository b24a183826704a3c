import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { FINANCIAL_ID_PATTERN } from '../../../contract';
import { ProblemError } from '../../problems';

// Rate limit per correspondent: each x-fapi-financial-id (the id issued by operations, spec §5) gets its own
// budget of lookups per window; requests without a well-formed id share their client IP's budget. With Redis
// the counters are shared by every instance behind the load balancer, so the limit holds for the whole service.

export interface RateLimitOptions {
  /** Lookups allowed per correspondent per window; 0 turns the limit off. */
  max: number;
  timeWindowMs: number;
  /** Counters live here when given (several instances); in this process's memory otherwise. */
  redis?: Redis;
  /** Prefix of the counters' Redis keys (REDIS_KEY_PREFIX), so several services or test runs share one Redis. */
  keyPrefix?: string;
}

/** Only the /v1 lookups are limited: not the portal's files, the OpenAPI document or the API reference. */
export function isRateLimited(url: string): boolean {
  const path = url.split('?')[0];
  return path.startsWith('/v1/') && path !== '/v1/openapi.json' && !path.startsWith('/v1/docs');
}

export function correspondentKey(request: FastifyRequest): string {
  const id = request.headers['x-fapi-financial-id'];
  return typeof id === 'string' && FINANCIAL_ID_PATTERN.test(id) ? `correspondent:${id}` : `ip:${request.ip}`;
}

async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions) {
  if (options.max === 0) return;
  await app.register(rateLimit, {
    max: options.max,
    timeWindow: options.timeWindowMs,
    keyGenerator: correspondentKey,
    allowList: (request) => !isRateLimited(request.url),
    redis: options.redis,
    nameSpace: `${options.keyPrefix ?? ''}rate-limit:`,
    // Redis unreachable: serve rather than refuse; the limit protects the service, it is not the service.
    skipOnError: true,
    // The plugin has set Retry-After (seconds); the app's error handler gives the problem+json body.
    errorResponseBuilder: (_request, context) =>
      new ProblemError('tooManyRequests', `Rate limit of ${context.max} lookups per correspondent exceeded; retry in ${context.after}.`),
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
