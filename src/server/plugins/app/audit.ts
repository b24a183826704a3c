import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { syncHook } from '../sync-hook';
import { FINANCIAL_ID_PATTERN, MAX_TEXT_LENGTH, UUID_SHAPED_PATTERN } from '../../../contract';

export interface AuditOptions {
  /** The query parameters of the operations (app.ts: from routes/v1); any other name is never written. */
  parameters: Iterable<string>;
  /** Requests that are not the clients' (the search index's warm-up) and are not written. */
  skip?: (request: FastifyRequest) => boolean;
}

/** Log levels at which an info line is dropped. */
const BELOW_INFO = new Set(['fatal', 'error', 'warn', 'silent']);

const capped = (value: unknown) => {
  const text = String(value);
  return text.length > MAX_TEXT_LENGTH ? `${text.slice(0, MAX_TEXT_LENGTH)}…` : text;
};

/**
 * The known parameters (an operation's: any other name, access_token=… say, is never logged), each value capped
 * at the longest a lookup accepts; unknown ones only counted.
 */
function loggedQuery(
  query: unknown,
  knownParameters: Set<string>,
): { known: Record<string, string | string[]>; unknownParameters: number } {
  const known: Record<string, string | string[]> = {};
  let unknownParameters = 0;
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (!knownParameters.has(name)) unknownParameters++;
    else known[name] = Array.isArray(value) ? value.slice(0, 5).map(capped) : capped(value);
  }
  return { known, unknownParameters };
}

/** A header's value when it has the contract's form; otherwise null, so a log line never carries junk. */
function wellFormed(request: FastifyRequest, name: string, pattern: RegExp): string | null {
  const value = request.headers[name];
  return typeof value === 'string' && pattern.test(value) ? value : null;
}

/**
 * The audit trail: exactly one JSON line per answered request (Fastify's own per-request lines are turned
 * off in app.ts). It names who asked what and how it went; headers are not logged, so the Authorization
 * header and API keys never reach the log, and of the query only the contract's parameters are (a key sent
 * as ?access_token=… is not).
 */
export default fp(
  async function audit(app: FastifyInstance, options: AuditOptions) {
    const knownParameters = new Set(options.parameters);
    app.addHook(
      'onResponse',
      syncHook((request, reply) => {
        // Below info (LOG_LEVEL=warn) the line would be dropped: not built at all.
        if (BELOW_INFO.has(request.log.level) || options.skip?.(request)) return;
        const { known, unknownParameters } = loggedQuery(request.query, knownParameters);
        request.log.info(
          {
            audit: {
              correspondentId: wellFormed(request, 'x-fapi-financial-id', FINANCIAL_ID_PATTERN),
              correlationId: request.id,
              idempotencyKey: wellFormed(request, 'x-idempotency-key', UUID_SHAPED_PATTERN),
              method: request.method,
              route: request.routeOptions.url ?? null,
              query: known,
              unknownParameters,
              status: reply.statusCode,
              durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
            },
          },
          'request',
        );
      }),
    );
  },
  { name: 'audit' },
);
