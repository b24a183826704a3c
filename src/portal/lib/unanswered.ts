// Slow is not down. A service that accepts a request and never answers (a frozen process, a stuck proxy) makes no
// error: without this the screen would say "updating" for ever. Every teller GET goes through `untilAnswered`,
// which keeps the request on a list while it waits; the layout's notice (service-not-answering.tsx) reads that
// list and tells the teller once a request has waited NOT_ANSWERING_AFTER_MS.
//
// The design: abort and re-issue. Each attempt gets a window (ATTEMPT_WINDOWS_MS, growing: the backoff); a
// window that ends unanswered aborts that attempt and sends the request again at once, with a fresh correlation
// id, so there is always one attempt in flight and the first answer after the service comes back ends the wait
// (no click). Aborting frees the browser's connection (a hung one would otherwise hold one of its six per host)
// and gets past a connection that died half-open. The request keeps trying as long as its caller wants the
// answer: TanStack Query aborts the caller's signal when no screen needs the query any more. A service that
// refuses connections or answers 5xx is a different case (down): those fail at once, as ApiErrors.

/** A teller request waiting for its answer. */
interface UnansweredRequest {
  /** The first attempt's correlation id: the reference the teller quotes to support. */
  readonly reference: string;
  /** When the first attempt was sent (epoch ms). */
  readonly sentAt: number;
}

/** How long a request may wait before the teller is told the service is not answering. */
export const NOT_ANSWERING_AFTER_MS = 8_000;

/** Each attempt's window; the last one repeats. */
const ATTEMPT_WINDOWS_MS = [10_000, 15_000, 20_000, 30_000] as const;

let waiting: readonly UnansweredRequest[] = [];
const listeners = new Set<() => void>();

function setWaiting(next: readonly UnansweredRequest[]) {
  waiting = next;
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: the requests waiting now, oldest first (a new array on every change). */
export function unansweredRequests(): readonly UnansweredRequest[] {
  return waiting;
}

export function subscribeUnanswered(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const abortError = () => new DOMException('The request was aborted.', 'AbortError');

/**
 * Runs `attempt` until it settles within its window (see the top of this file). `attempt` gets the attempt's
 * signal and a fresh correlation id; an answer or an error it throws ends the wait, an attempt whose window ran
 * out is aborted and sent again. The caller's `signal` aborting ends it with the caller's abort. `windows` are
 * the attempts' windows (ATTEMPT_WINDOWS_MS; shorter in tests).
 */
export async function untilAnswered<T>(
  attempt: (signal: AbortSignal, correlationId: string) => Promise<T>,
  newCorrelationId: () => string,
  signal?: AbortSignal,
  windows: readonly number[] = ATTEMPT_WINDOWS_MS,
): Promise<T> {
  if (signal?.aborted) throw signal.reason ?? abortError();
  const entry: UnansweredRequest = { reference: newCorrelationId(), sentAt: Date.now() };
  setWaiting([...waiting, entry]);
  try {
    for (let tries = 0; ; tries++) {
      const controller = new AbortController();
      let windowEnded = false;
      const timer = setTimeout(
        () => {
          windowEnded = true;
          controller.abort(abortError());
        },
        windows[Math.min(tries, windows.length - 1)],
      );
      const stop = () => controller.abort(signal?.reason ?? abortError());
      signal?.addEventListener('abort', stop, { once: true });
      try {
        return await attempt(controller.signal, tries === 0 ? entry.reference : newCorrelationId());
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        if (!windowEnded) throw error;
        // The window ended unanswered: the next round sends the request again.
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
      }
    }
  } finally {
    setWaiting(waiting.filter((other) => other !== entry));
  }
}
