import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { PROBLEM_TYPES, ProblemError, problemBody, type ProblemKind } from '../../problems';

// Size limits on what a client may send (README.md, "Security and operations", "Limits"). Lookups take short values
// (free text ≤ 100 characters), so even a fully %-encoded request stays far below these.

/** MAX_URL_LENGTH and MAX_HEADER_SIZE when not configured (Node's own default head size is 16 KB too). */
export const DEFAULT_LIMITS = { maxUrlLength: 8192, maxHeaderSize: 16384 };

/** onRequest hook: a request target (path and query) longer than maxUrlLength bytes gets 414. */
export function requestTargetLimit(maxUrlLength: number) {
  return async (request: FastifyRequest) => {
    const target = request.raw.url ?? '';
    if (Buffer.byteLength(target, 'latin1') > maxUrlLength) {
      throw new ProblemError('uriTooLong', `The request target is longer than ${maxUrlLength} bytes.`);
    }
  };
}

/**
 * Errors Node's HTTP parser raises before Fastify has a request (head over MAX_HEADER_SIZE, malformed
 * request line, header timeout), answered as problem+json on the raw socket like every other error.
 */
export function clientErrorAsProblem(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const kind: ProblemKind = error.code === 'HPE_HEADER_OVERFLOW' ? 'headersTooLarge' : 'invalidRequest';
  const detail =
    kind === 'headersTooLarge'
      ? 'The request line and headers are larger than this service accepts.'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request was not received in time.'
        : 'The request is not well-formed HTTP.';
  const correlationId = randomUUID();
  const body = JSON.stringify(problemBody(kind, detail, correlationId));
  const status = PROBLEM_TYPES[kind].status;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nx-correlation-id: ${correlationId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
