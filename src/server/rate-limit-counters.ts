import { threadId } from 'node:worker_threads';
import type { Redis } from 'ioredis';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

// The rate-limit counters of one process, shared by its serving threads (serving-threads.ts) when there is no
// Redis: every limit (the lookups' budgets, the desk's sign-in budget, the tellers' reports) counts per process,
// whichever thread a connection landed on. @fastify/rate-limit takes them as its `store` (the contract of its
// LocalStore: incr, read, child), so a request costs a hash of its key and a few reads and writes in shared
// memory under a lock, no message to another thread.
//
// The table lives in one SharedArrayBuffer, handed to each serving thread in its workerData: a fixed number of
// slots, open addressing over a 64-bit hash of the key (two different keys sharing a hash would share a
// counter), each slot holding the hash, the window's start and end, and the count. A lock word (Atomics) guards
// every read and write: it holds the owner's threadId + 1, so when a thread ends while holding it the main
// thread releases it (releaseHeldBy). Bounded as LocalStore's 5000-entry LRU is, with a fixed cost per
// request: a key is looked for among PROBE slots from its hash; a new key takes the first of them that is empty
// or whose window has ended, and when all of them hold a window still running, the one that started first is
// replaced (its key starts afresh, as a key LocalStore's LRU dropped does).

/** Slots in a table; a limit's keys are callers, addresses and account names, each a slot while its window runs. */
const DEFAULT_SLOTS = 16_384;
/** Slots looked at from a key's hash. */
const PROBE = 16;
/** Header (Int32): the lock word, threads waiting for it, the number of slots. */
const LOCK = 0;
const WAITERS = 1;
const SLOTS = 2;
const HEADER_BYTES = 16;
/** Per slot: Float64 window start and end (epoch ms); Int32 hash (two words) and count. */
const TIMES = 2;
const WORDS = 3;
/** Tries for the lock before waiting (a holder keeps it for a few reads and writes). */
const SPINS = 64;
const MAX_COUNT = 2 ** 31 - 1;

/** What a store's incr and read answer: the count in the window, and the ms left of it. */
interface Counted {
  current: number;
  ttl: number;
}

/** Two 32-bit hashes of a string (cyrb53's mixing); never both 0, which marks an empty slot. */
function hashOf(key: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return h1 === 0 && h2 === 0 ? [0, 1] : [h1 | 0, h2 | 0];
}

export class RateLimitCounters {
  readonly buffer: SharedArrayBuffer;
  private readonly header: Int32Array;
  private readonly times: Float64Array;
  private readonly words: Int32Array;
  private readonly slots: number;
  private readonly owner = threadId + 1;

  /** A new table of `slots` slots, or the table another thread made (its buffer). */
  constructor(from: number | SharedArrayBuffer = DEFAULT_SLOTS) {
    if (typeof from === 'number') {
      if (!Number.isInteger(from) || from < PROBE) throw new Error(`a rate-limit table needs at least ${PROBE} slots`);
      this.buffer = new SharedArrayBuffer(HEADER_BYTES + from * (TIMES * 8 + WORDS * 4));
      new Int32Array(this.buffer, 0, HEADER_BYTES / 4)[SLOTS] = from;
    } else this.buffer = from;
    this.header = new Int32Array(this.buffer, 0, HEADER_BYTES / 4);
    this.slots = this.header[SLOTS];
    this.times = new Float64Array(this.buffer, HEADER_BYTES, this.slots * TIMES);
    this.words = new Int32Array(this.buffer, HEADER_BYTES + this.slots * TIMES * 8, this.slots * WORDS);
  }

  /** Counts one more for `key` in its window of `timeWindow` ms (a new window once the last one ended). */
  incr(key: string, timeWindow: number): Counted {
    return this.count(key, timeWindow, true);
  }

  /** The count of `key` in its running window, without counting (0 when none runs). */
  read(key: string, timeWindow: number): Counted {
    return this.count(key, timeWindow, false);
  }

  /** Releases the lock when the thread `ended` (a serving thread that stopped) held it. */
  static releaseHeldBy(buffer: SharedArrayBuffer, ended: number): void {
    const header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    if (Atomics.compareExchange(header, LOCK, ended + 1, 0) === ended + 1) Atomics.notify(header, LOCK);
  }

  /** `key`'s count in its window of `timeWindow` ms, one more when `add` (incr) or as it stands (read). */
  private count(key: string, timeWindow: number, add: boolean): Counted {
    const [h1, h2] = hashOf(key);
    const now = Date.now();
    this.lock();
    try {
      const { slot, found } = this.find(h1, h2, now);
      const t = slot * TIMES;
      const w = slot * WORDS;
      if (found && this.times[t] + timeWindow > now) {
        if (add) {
          this.words[w + 2] = Math.min(this.words[w + 2] + 1, MAX_COUNT);
          this.times[t + 1] = this.times[t] + timeWindow;
        }
        return { current: this.words[w + 2], ttl: timeWindow - (now - this.times[t]) };
      }
      if (!add) return { current: 0, ttl: 0 };
      this.words[w] = h1;
      this.words[w + 1] = h2;
      this.words[w + 2] = 1;
      this.times[t] = now;
      this.times[t + 1] = now + timeWindow;
      return { current: 1, ttl: timeWindow };
    } finally {
      this.unlock();
    }
  }

  /** The key's slot (found), or the slot a new window of it takes (see the top of this file). */
  private find(h1: number, h2: number, now: number): { slot: number; found: boolean } {
    const start = (h1 >>> 0) % this.slots;
    let free = -1;
    let oldest = start;
    for (let i = 0; i < PROBE; i++) {
      const slot = (start + i) % this.slots;
      const w = slot * WORDS;
      if (this.words[w] === h1 && this.words[w + 1] === h2) return { slot, found: true };
      if (free >= 0) continue;
      const empty = this.words[w] === 0 && this.words[w + 1] === 0;
      if (empty || this.times[slot * TIMES + 1] <= now) free = slot;
      else if (this.times[slot * TIMES] < this.times[oldest * TIMES]) oldest = slot;
    }
    return { slot: free >= 0 ? free : oldest, found: false };
  }

  private lock(): void {
    for (let spin = 0; ; spin++) {
      const holder = Atomics.compareExchange(this.header, LOCK, 0, this.owner);
      if (holder === 0) return;
      if (holder === this.owner) throw new Error('the rate-limit table is already locked by this thread');
      if (spin < SPINS) continue;
      // The holder was descheduled: sleep until it unlocks (a bounded wait, so nothing hangs on a lost wake-up).
      Atomics.add(this.header, WAITERS, 1);
      Atomics.wait(this.header, LOCK, holder, 1);
      Atomics.sub(this.header, WAITERS, 1);
    }
  }

  private unlock(): void {
    Atomics.store(this.header, LOCK, 0);
    if (Atomics.load(this.header, WAITERS) > 0) Atomics.notify(this.header, LOCK, 1);
  }
}

/** A count handed to @fastify/rate-limit's callback, or the error that stopped it. */
function answer(count: () => Counted, callback: StoreCallback): void {
  let counted: Counted;
  try {
    counted = count();
  } catch (error) {
    return callback(error as Error);
  }
  callback(null, counted);
}

/** @fastify/rate-limit's `store` over the table `counters`, its keys under `nameSpace`. */
function sharedStore(counters: RateLimitCounters, nameSpace: string): FastifyRateLimitStoreCtor {
  return class SharedStore implements FastifyRateLimitStore {
    constructor(
      options: object,
      private readonly prefix = nameSpace,
    ) {
      // Neither is used here; a table that silently ignored them would count otherwise than asked.
      const { continueExceeding, exponentialBackoff } = options as StoreOptions;
      if (continueExceeding || exponentialBackoff)
        throw new Error('the shared rate-limit counters do not keep continueExceeding or exponentialBackoff');
    }
    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      answer(() => counters.incr(this.prefix + key, timeWindow), callback);
    }
    read(key: string, callback: StoreCallback, timeWindow: number): void {
      answer(() => counters.read(this.prefix + key, timeWindow), callback);
    }
    /** A route's own limit counts apart from the others (as RedisStore keys it); createRateLimit's share. */
    child(options: object) {
      const { routeInfo } = options as StoreOptions;
      const route = routeInfo?.url ? `${routeInfo.method ?? ''}${routeInfo.url}-` : '';
      return new SharedStore(options, this.prefix + route);
    }
  };
}

type StoreCallback = (error: Error | null, result?: Counted) => void;
/** What @fastify/rate-limit hands a store's constructor and child: its settings, a route's for a child. */
interface StoreOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string; url?: string };
}

/**
 * Where a registration of @fastify/rate-limit keeps its counters: in Redis when configured (shared by every
 * instance), else in the process's shared table (shared by its serving threads); with neither, its own LocalStore.
 */
export function rateLimitStorage(
  nameSpace: string,
  redis: Redis | undefined,
  counters: RateLimitCounters | undefined,
): { redis: Redis; nameSpace: string } | { store: FastifyRateLimitStoreCtor } | { nameSpace: string } {
  if (redis) return { redis, nameSpace };
  if (counters) return { store: sharedStore(counters, nameSpace) };
  return { nameSpace };
}
