// Buffers for search answers, used again once their response is done. An answer written from the documents
// (documents.ts) is one Buffer outside the JavaScript heap; allocating a fresh one per request left tens of
// megabytes of dead answers waiting for a full garbage collection (the soak test watches the resident memory).
// Reused, they cost nothing.
//
// A buffer goes back to the pool only when its response has closed: Node emits 'close' on a response after the
// last byte was handed to the operating system, or after the connection was torn down, so nothing still reads
// it when the next answer is written into it.

/** Smallest and largest pooled capacity; answers outside are allocated as usual. */
const MIN_CAPACITY = 4096;
const MAX_CAPACITY = 1 << 20;
/** Kept per capacity: about the connections of a busy process. */
const KEPT_PER_CAPACITY = 64;

export class BodyPool {
  private readonly free = new Map<number, Buffer[]>();
  /** The pooled buffer each answer handed out is a view of (an answer is given back once). */
  private readonly pooled = new WeakMap<Buffer, Buffer>();

  /** A buffer of exactly `length` bytes (contents undefined). */
  take = (length: number): Buffer => {
    const capacity = Math.max(MIN_CAPACITY, 2 ** Math.ceil(Math.log2(Math.max(1, length))));
    if (capacity > MAX_CAPACITY) return Buffer.allocUnsafeSlow(length);
    const whole = this.free.get(capacity)?.pop() ?? Buffer.allocUnsafeSlow(capacity);
    const body = whole.subarray(0, length);
    this.pooled.set(body, whole);
    return body;
  };

  /** Takes back an answer of `take` whose response is done; anything else is ignored. */
  give = (body: Buffer): void => {
    const whole = this.pooled.get(body);
    if (!whole) return;
    this.pooled.delete(body);
    const list = this.free.get(whole.length) ?? [];
    this.free.set(whole.length, list);
    if (list.length < KEPT_PER_CAPACITY) list.push(whole);
  };

  /** Buffers waiting to be used again (for tests). */
  get idle(): number {
    return [...this.free.values()].reduce((sum, list) => sum + list.length, 0);
  }
}
