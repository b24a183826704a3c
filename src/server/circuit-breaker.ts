// A small circuit breaker for a dependency the service can do without (Redis): after `failureThreshold` failed
// calls in a row it opens, and calls fail at once — a dead dependency then costs nothing per request — until
// `openMs` has passed; then one trial call is let through (half-open): success closes it, failure opens it again.

export class CircuitOpenError extends Error {
  constructor(name: string) {
    super(`${name} is skipped: its circuit breaker is open after repeated failures`);
    this.name = 'CircuitOpenError';
  }
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  private failures = 0;
  private openedAt = 0;
  private trialRunning = false;
  /** The last failure's message, for /readyz. */
  lastError = '';

  constructor(
    readonly name: string,
    private readonly options: { failureThreshold: number; openMs: number; onOpen?: () => void; now?: () => number },
  ) {}

  get state(): BreakerState {
    if (this.failures < this.options.failureThreshold) return 'closed';
    return this.now() - this.openedAt >= this.options.openMs ? 'half-open' : 'open';
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.trialRunning)) throw new CircuitOpenError(this.name);
    const trial = state === 'half-open';
    if (trial) this.trialRunning = true;
    try {
      const result = await call();
      this.failures = 0;
      this.lastError = '';
      return result;
    } catch (error) {
      this.lastError = (error as Error).message;
      this.failures++;
      if (trial || this.failures === this.options.failureThreshold) {
        this.openedAt = this.now();
        this.options.onOpen?.();
      }
      throw error;
    } finally {
      if (trial) this.trialRunning = false;
    }
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }
}
