import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ProblemParameter } from '../../../contract';
import { PROBLEM_TYPES, ProblemError, problemBody, type ProblemKind } from '../../problems';
import { syncHook } from '../sync-hook';

// Size limits on what a client may send (README.md, "Security and operations", "Limits"). Lookups take short values
// (free text ≤ 100 characters), so even a fully %-encoded request stays far below these.

/**
 * The limits when not configured (Node's own default head size is 16 KB too). A lookup's request is one short
 * line and a few headers: a client that takes seconds to send it is broken or hostile, and holds a socket.
 */
export const DEFAULT_LIMITS: Limits = {
  maxUrlLength: 8192,
  maxHeaderSize: 16384,
  headersTimeoutMs: 5000,
  requestTimeoutMs: 10_000,
  maxConnectionsPerAddress: 256,
};

export interface Limits {
  /** MAX_URL_LENGTH: longest request target; longer gets 414. */
  maxUrlLength: number;
  /** MAX_HEADER_SIZE: largest request head; larger gets 431. */
  maxHeaderSize: number;
  /** HEADERS_TIMEOUT_MS: the request head must arrive within this; else 408 and the socket closed. */
  headersTimeoutMs: number;
  /** REQUEST_TIMEOUT_MS: the whole request (head and body) must arrive within this; else 408 and closed. */
  requestTimeoutMs: number;
  /** MAX_CONNECTIONS_PER_ADDRESS: open connections one client address may hold; more are refused (429). */
  maxConnectionsPerAddress: number;
}

/** Raw HTTP answer on a socket Fastify has no request for (parser errors, timeouts, refused connections). */
function writeRawProblem(socket: Socket, kind: ProblemKind, detail: string) {
  const correlationId = randomUUID();
  const body = JSON.stringify(problemBody(kind, detail, correlationId));
  const status = PROBLEM_TYPES[kind].status;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nx-correlation-id: ${correlationId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
}

/**
 * Caps the open connections per client address (connection event of the HTTP server): one client cannot
 * hold every socket the process can open. Past the cap the connection is answered 429 and closed.
 */
export function capConnectionsPerAddress(server: Server, max: number) {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
    if (count > max) {
      writeRawProblem(socket, 'tooManyRequests', `More than ${max} open connections from this address.`);
      socket.end();
      socket.destroySoon?.();
    }
  });
}

/** onRequest hook: a request target (path and query) longer than maxUrlLength bytes gets 414. */
export function requestTargetLimit(maxUrlLength: number) {
  return syncHook((request) => {
    const target = request.raw.url ?? '';
    if (Buffer.byteLength(target, 'latin1') > maxUrlLength) {
      throw new ProblemError('uriTooLong', `The request target is longer than ${maxUrlLength} bytes.`);
    }
  });
}

/**
 * Errors Node's HTTP parser raises before Fastify has a request (head over MAX_HEADER_SIZE, malformed
 * request line, header timeout), answered as problem+json on the raw socket like every other error.
 */
export function clientErrorAsProblem(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const kind: ProblemKind =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'headersTooLarge'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'requestTimeout'
        : 'invalidRequest';
  const detail =
    kind === 'headersTooLarge'
      ? 'The request line and headers are larger than this service accepts.'
      : kind === 'requestTimeout'
        ? 'The request was not received in time.'
        : 'The request is not well-formed HTTP.';
  // A response already under way on this socket cannot be followed by another one.
  if ((socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent !== true)
    writeRawProblem(socket, kind, detail);
  socket.destroy(error);
}

/** The text a %-encoded query part stands for, or null when it is not valid %-encoded UTF-8. */
function decodeStrictly(part: string): string | null {
  try {
    // decodeURIComponent refuses bad escapes (%zz), invalid UTF-8 (%FF), overlong forms (%C0%AF) and surrogates
    // (%ED%A0%80).
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * onRequest hook: a query parameter whose name or value is not valid %-encoded UTF-8 is a 400 naming it. The
 * query-string parser would otherwise keep such a value undecoded and the lookup would search for it.
 */
export const wellFormedQueryEscapes = syncHook((request) => {
  // An unknown path is a 404 whatever its query says.
  if (request.is404) return;
  const target = request.raw.url ?? '';
  const start = target.indexOf('?');
  if (start < 0 || !target.includes('%', start)) return;
  const problems: ProblemParameter[] = [];
  for (const pair of target.slice(start + 1).split('&')) {
    if (!pair.includes('%')) continue;
    const equals = pair.indexOf('=');
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    const name = decodeStrictly(rawName);
    if (name === null) {
      problems.push({
        name: rawName.slice(0, 100),
        in: 'query',
        message: 'the parameter name is not valid percent-encoded UTF-8',
      });
    } else if (equals >= 0 && decodeStrictly(pair.slice(equals + 1)) === null) {
      problems.push({
        name: name.slice(0, 100),
        in: 'query',
        message: 'is not valid percent-encoded UTF-8 (a malformed %-escape)',
      });
    }
  }
  if (problems.length) {
    throw new ProblemError(
      'invalidRequest',
      `The request has ${problems.length} malformed query parameter${problems.length === 1 ? '' : 's'}: ${problems.map((p) => p.name).join(', ')}.`,
      problems,
    );
  }
});

/** onRequest hook: HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own refusal would be a bare 400 without headers. */
export const hostRequired = syncHook((request) => {
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
    throw new ProblemError('invalidRequest', 'An HTTP/1.1 request must carry a Host header.', [
      { name: 'host', in: 'header', message: 'is required' },
    ]);
  }
});
