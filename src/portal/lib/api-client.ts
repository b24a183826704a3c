import type { ProblemParameter } from '../../contract';
import { readCorrespondentId } from './correspondent-id';
import { i18n } from './i18n';

// The one HTTP client of the portal: every request carries the teller's x-fapi-financial-id and a fresh
// x-correlation-id (spec §5), and every failure becomes an ApiError with the message, the invalid
// parameters and the correlation id a teller quotes to support.

export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    readonly correlationId: string,
    readonly errors: ProblemParameter[] = [],
    readonly title = status === 0 ? i18n.t('api.unreachableTitle') : i18n.t('api.failedTitle', { status }),
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Network failures and server errors may pass on retry; a 4xx will not (the request itself is wrong). */
  get isRetryable() {
    return this.status === 0 || this.status >= 500;
  }
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

interface ProblemBody {
  title?: string;
  detail?: string;
  correlationId?: string;
  errors?: ProblemParameter[];
}

/** `financialId` overrides the signed-in id: sign-in asks the service about an id before keeping it. */
export async function apiGet<T>(
  path: string,
  options: { query?: QueryValues; signal?: AbortSignal; financialId?: string } = {},
): Promise<T> {
  const correlationId = newCorrelationId();
  const headers: Record<string, string> = { accept: 'application/json', 'x-correlation-id': correlationId };
  const financialId = options.financialId ?? readCorrespondentId();
  if (financialId) headers['x-fapi-financial-id'] = financialId;

  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), { headers, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error; // a stale request the query layer cancelled, not a failure
    throw new ApiError(i18n.t('api.unreachable'), 0, correlationId);
  }
  const answeredId = response.headers.get('x-correlation-id') ?? correlationId;
  if (response.ok) return (await response.json()) as T;

  const type = response.headers.get('content-type') ?? '';
  const problem: ProblemBody = type.includes('json') ? await response.json().catch(() => ({})) : {};
  throw new ApiError(
    problem.detail ?? i18n.t('api.answered', { status: `${response.status} ${response.statusText}`.trim() }),
    response.status,
    problem.correlationId ?? answeredId,
    problem.errors ?? [],
    problem.title,
  );
}
