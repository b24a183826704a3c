import type { ProblemParameter } from '../../contract';
import { readCorrespondentId } from './correspondent-id';
import { i18n } from './i18n';
import { untilAnswered } from './unanswered';

// The one HTTP client of the portal: every request carries the teller's x-fapi-financial-id and a fresh
// x-correlation-id (spec §5), and every failure becomes an ApiError with the message, the invalid
// parameters and the correlation id a teller quotes to support.

/** Every problem type the API answers with (src/server/problems.ts), plus the two the portal meets itself. */
export const PROBLEM_KINDS = [
  'invalidRequest',
  'notFound',
  'methodNotAllowed',
  'unauthorized',
  'forbidden',
  'requestTimeout',
  'conflict',
  /** A 409 of the desk naming a re-diff (the body holds the change and its new counts). */
  'staleChange',
  'payloadTooLarge',
  'unsupportedMediaType',
  'unprocessable',
  'uriTooLong',
  'tooManyRequests',
  'headersTooLarge',
  'internal',
  'unavailable',
  /** The service could not be reached at all. */
  'unreachable',
  /** An answer without a problem type (a proxy's 502 page…). */
  'unknown',
] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

/** `urn:problem:invalid-request` → `invalidRequest`; a status alone when the answer named no type. */
export function problemKind(type: string | undefined, status: number): ProblemKind {
  const named = /^urn:problem:([a-z-]+)$/
    .exec(type ?? '')?.[1]
    ?.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  if (named && (PROBLEM_KINDS as readonly string[]).includes(named)) return named as ProblemKind;
  if (status === 0) return 'unreachable';
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  return 'unknown';
}

/**
 * A failed request. `message` is the technical text (the API's detail, with the path in the console); what a
 * teller reads is `title` and `sentence`, in the interface language, with the correlation id to quote to
 * support (never the API path).
 */
export class ApiError extends Error {
  readonly kind: ProblemKind;
  constructor(
    message: string,
    /** HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    readonly correlationId: string,
    readonly errors: ProblemParameter[] = [],
    /** The problem type the API answered (`urn:problem:…`), if any. */
    readonly type?: string,
    /** The whole problem body, with any members its type adds (a stale change's new difference). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.kind = problemKind(type, status);
  }

  /** The heading of the error, in the interface language (read when shown: the language may have changed). */
  get title(): string {
    return i18n.t(`teller.problems.${this.kind}.title`, { status: this.status });
  }

  /** What happened and what to do, in the interface language. */
  get sentence(): string {
    return i18n.t(`teller.problems.${this.kind}.text`, { status: this.status });
  }

  /** Network failures and server errors may pass on retry; a 4xx will not (the request itself is wrong). */
  get isRetryable() {
    return this.status === 0 || this.status >= 500;
  }
}

/** What a teller reads for any error: an ApiError's sentence, else the error's own message. */
export function errorSentence(error: unknown): string {
  if (error instanceof ApiError) return error.sentence;
  return error instanceof Error ? error.message : String(error);
}

/** A UUID v4 for x-correlation-id; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newCorrelationId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type QueryValues = Record<string, string | number | undefined | null>;

/** Builds `path?query`, leaving out empty values (the API rejects empty parameters rather than ignoring them). */
export function withQuery(path: string, query: QueryValues = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

interface ProblemBody extends Record<string, unknown> {
  type?: string;
  title?: string;
  detail?: string;
  correlationId?: string;
  errors?: ProblemParameter[];
}

/**
 * `financialId` overrides the signed-in id: sign-in asks the service about an id before keeping it. A request
 * the service does not answer is sent again until it is, or until `signal` says nobody needs it (unanswered.ts).
 */
export function apiGet<T>(
  path: string,
  options: { query?: QueryValues; signal?: AbortSignal; financialId?: string } = {},
): Promise<T> {
  return untilAnswered(
    (signal, correlationId) => getOnce<T>(path, options, signal, correlationId),
    newCorrelationId,
    options.signal,
  );
}

/** One attempt of apiGet. */
async function getOnce<T>(
  path: string,
  options: { query?: QueryValues; financialId?: string },
  signal: AbortSignal,
  correlationId: string,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-correlation-id': correlationId };
  const financialId = options.financialId ?? readCorrespondentId();
  if (financialId) headers['x-fapi-financial-id'] = financialId;

  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), { headers, signal });
  } catch (error) {
    if (signal.aborted) throw error; // cancelled, or its window ended: not a failure
    throw unreachable('GET', path, correlationId, error);
  }
  const answeredId = response.headers.get('x-correlation-id') ?? correlationId;
  if (response.ok) return (await response.json()) as T;

  throw await answeredError('GET', path, response, answeredId);
}

/**
 * The ApiError of an answer that is not OK, for the teller's and the desk's calls alike. The path and the API's
 * own words are for whoever opens the console; the screen shows a sentence and the correlation id.
 */
export async function answeredError(method: string, path: string, response: Response, answeredId: string) {
  const type = response.headers.get('content-type') ?? '';
  const problem: ProblemBody = type.includes('json') ? await response.json().catch(() => ({})) : {};
  const detail = problem.detail ?? `The service answered ${`${response.status} ${response.statusText}`.trim()}.`;
  const id = problem.correlationId ?? answeredId;
  console.error(
    `${method} ${path} answered ${response.status} ${problem.type ?? ''}: ${detail} (correlation id ${id})`,
  );
  return new ApiError(detail, response.status, id, problem.errors ?? [], problem.type, problem);
}

/** The ApiError of a request that could not be sent at all. */
export function unreachable(method: string, path: string, correlationId: string, cause?: unknown) {
  console.error(`${method} ${path} could not be sent (correlation id ${correlationId})`, cause);
  return new ApiError('The lookup service could not be reached.', 0, correlationId);
}

// ---- The operations desk --------------------------------------------------------------------------------
// Ops calls are signed in by the session cookie (same origin; HttpOnly, so the portal never reads it) and never
// carry a teller's correspondent id. Every state-changing call sends the session's CSRF token in x-csrf-token;
// the token comes with the session (sign-in and the session answer), and the desk keeps it here, in memory.

let csrfToken: string | null = null;

/**
 * Whether this browser has signed in to the desk and not out since (a flag in localStorage, never the session
 * itself): without it the desk shows its sign-in at once instead of asking the server for a session it would
 * refuse (a 401 the browser logs as an error on every first visit). A session the server ended (expiry) is
 * still found out by the session answer's 401, which clears the flag.
 */
const SESSION_HINT_KEY = 'rpl.ops.signedIn';

export function mayHaveOpsSession(): boolean {
  try {
    return localStorage.getItem(SESSION_HINT_KEY) === '1';
  } catch {
    return true; // storage blocked: ask the server
  }
}

/** Kept from the session answer; cleared at sign-out (and the sign-in flag with it). */
export function setCsrfToken(token: string | null | undefined) {
  csrfToken = token ?? null;
  try {
    if (csrfToken) localStorage.setItem(SESSION_HINT_KEY, '1');
    else localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    // storage blocked: the session is asked for at every visit
  }
}

function opsHeaders(method: string, correlationId: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-correlation-id': correlationId };
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  return headers;
}

/**
 * An operations-desk request: GET, or a state-changing method with a JSON body (or FormData). Answers 204 as
 * undefined. Failures are ApiErrors like the teller calls'.
 */
export async function opsRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: { query?: QueryValues; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const correlationId = newCorrelationId();
  const headers = opsHeaders(method, correlationId);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw unreachable(method, path, correlationId, error);
  }
  if (!response.ok)
    throw await answeredError(method, path, response, response.headers.get('x-correlation-id') ?? correlationId);
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? await response.json() : await response.text()) as T;
}

/**
 * A multipart upload with its progress (fetch reports none for request bodies; XMLHttpRequest's upload events
 * do). `onProgress` gets the share sent, 0–1.
 */
export function opsUpload<T>(path: string, form: FormData, onProgress: (share: number) => void): Promise<T> {
  const correlationId = newCorrelationId();
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.withCredentials = false; // same origin: the cookie goes anyway
    for (const [name, value] of Object.entries(opsHeaders('POST', correlationId)))
      request.setRequestHeader(name, value);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('error', () => reject(unreachable('POST', path, correlationId)));
    request.addEventListener('load', () => {
      const text = request.responseText;
      const headers = new Headers();
      for (const line of request
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const at = line.indexOf(':');
        if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      const response = new Response(request.status === 204 ? null : text, {
        status: request.status,
        statusText: request.statusText,
        headers,
      });
      if (!response.ok)
        return void answeredError(
          'POST',
          path,
          response,
          response.headers.get('x-correlation-id') ?? correlationId,
        ).then(reject);
      onProgress(1);
      resolve((text ? JSON.parse(text) : undefined) as T);
    });
    request.send(form);
  });
}
