import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Problem, ProblemParameter } from '../contract';

// One shape for every error the service gives: RFC 9457 problem details, with the correlation id a teller
// quotes to support and every invalid parameter or header named at once.

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export const PROBLEM_TYPES = {
  invalidRequest: { type: 'urn:problem:invalid-request', title: 'Invalid request', status: 400 },
  notFound: { type: 'urn:problem:not-found', title: 'Not found', status: 404 },
  methodNotAllowed: { type: 'urn:problem:method-not-allowed', title: 'Method not allowed', status: 405 },
  unauthorized: { type: 'urn:problem:unauthorized', title: 'Unauthorized', status: 401 },
  forbidden: { type: 'urn:problem:forbidden', title: 'Forbidden', status: 403 },
  requestTimeout: { type: 'urn:problem:request-timeout', title: 'Request timeout', status: 408 },
  conflict: { type: 'urn:problem:conflict', title: 'Conflict', status: 409 },
  payloadTooLarge: { type: 'urn:problem:payload-too-large', title: 'Payload too large', status: 413 },
  uriTooLong: { type: 'urn:problem:uri-too-long', title: 'URI too long', status: 414 },
  unsupportedMediaType: { type: 'urn:problem:unsupported-media-type', title: 'Unsupported media type', status: 415 },
  unprocessable: { type: 'urn:problem:unprocessable', title: 'Unprocessable content', status: 422 },
  tooManyRequests: { type: 'urn:problem:too-many-requests', title: 'Too many requests', status: 429 },
  headersTooLarge: { type: 'urn:problem:headers-too-large', title: 'Request header fields too large', status: 431 },
  internal: { type: 'urn:problem:internal', title: 'Server error', status: 500 },
  unavailable: { type: 'urn:problem:unavailable', title: 'Service unavailable', status: 503 },
} as const;
export type ProblemKind = keyof typeof PROBLEM_TYPES;

/** An error a handler throws to answer with a problem; the error handler shapes it. */
export class ProblemError extends Error {
  constructor(
    readonly kind: ProblemKind,
    readonly detail: string,
    readonly errors: ProblemParameter[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function problemBody(
  kind: ProblemKind,
  detail: string,
  correlationId: string,
  errors: ProblemParameter[] = [],
): Problem {
  return { ...PROBLEM_TYPES[kind], detail, correlationId, errors };
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: ProblemKind,
  detail: string,
  errors: ProblemParameter[] = [],
) {
  return reply
    .code(PROBLEM_TYPES[kind].status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(problemBody(kind, detail, request.correlationId, errors));
}
