import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { FINANCIAL_ID_PATTERN, UUID_SHAPED_PATTERN } from '../../../contract';

/** A header's value when it has the contract's form; otherwise null, so a log line never carries junk. */
function wellFormed(request: FastifyRequest, name: string, pattern: RegExp): string | null {
  const value = request.headers[name];
  return typeof value === 'string' && pattern.test(value) ? value : null;
}

/**
 * The audit trail: exactly one JSON line per answered request (Fastify's own per-request lines are turned
 * off in app.ts). It names who asked what and how it went; headers are not logged, so the Authorization
 * header and API keys never reach the log.
 */
export default fp(async function audit(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        audit: {
          correspondentId: wellFormed(request, 'x-fapi-financial-id', FINANCIAL_ID_PATTERN),
          correlationId: request.id,
          idempotencyKey: wellFormed(request, 'x-idempotency-key', UUID_SHAPED_PATTERN),
          method: request.method,
          route: request.routeOptions.url ?? null,
          query: request.query ?? {},
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
        },
      },
      'request',
    );
  });
}, { name: 'audit' });
