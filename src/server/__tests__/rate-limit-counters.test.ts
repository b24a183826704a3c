import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimitCounters, rateLimitStorage } from '../rate-limit-counters';
import { startWorker } from '../worker-thread';

// The rate-limit counters the serving threads of a process share (rate-limit-counters.ts): exact under threads
// counting at once, a window that ends starts afresh, a full table stays bounded, and @fastify/rate-limit counts
// in it as in its own LocalStore.

/** Starts `workers` threads on one table, lets them count `key` at once, and returns what each saw. */
async function hammer(counters: RateLimitCounters, workers: number, options: { attempts: number; max: number }) {
  const gate = new SharedArrayBuffer(4);
  const threads: Worker[] = [];
  try {
    for (let i = 0; i < workers; i++)
      threads.push(
        startWorker(new URL('../../testing/rate-limit-hammer.js', import.meta.url), {
          buffer: counters.buffer,
          gate,
          key: 'caller:AB12CD@127.0.0.1',
          windowMs: 60_000,
          ...options,
        }),
      );
    const results = threads.map((thread) => once(thread, 'message').then(() => once(thread, 'message')));
    // Every worker is waiting on the gate once it said ready; then all start at once.
    await Promise.all(threads.map((thread) => once(thread, 'message')));
    Atomics.store(new Int32Array(gate), 0, 1);
    Atomics.notify(new Int32Array(gate), 0);
    return (await Promise.all(results)).map(([result]) => result as { allowed: number; highest: number });
  } finally {
    await Promise.all(threads.map((thread) => thread.terminate()));
  }
}

describe('rate-limit counters shared by threads', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets exactly max through when threads count the same key at once, and loses no count', async () => {
    const counters = new RateLimitCounters();
    const attempts = 50_000;
    const max = 20_000;
    const seen = await hammer(counters, 3, { attempts, max });
    // Each worker got its share of the budget, and together exactly the budget.
    expect(seen.reduce((sum, s) => sum + s.allowed, 0)).toBe(max);
    expect(Math.max(...seen.map((s) => s.highest))).toBe(3 * attempts);
    expect(counters.read('caller:AB12CD@127.0.0.1', 60_000).current).toBe(3 * attempts);
    // With one table per thread (what each serving thread kept before), each would have had the whole budget.
    const apart = await Promise.all([0, 1, 2].map(() => hammer(new RateLimitCounters(), 1, { attempts, max })));
    expect(apart.flat().reduce((sum, s) => sum + s.allowed, 0)).toBe(3 * max);
  });

  it('starts a new window once the last one ended', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const counters = new RateLimitCounters();
    expect(counters.incr('k', 1000)).toEqual({ current: 1, ttl: 1000 });
    vi.setSystemTime(1_000_400);
    expect(counters.incr('k', 1000)).toEqual({ current: 2, ttl: 600 });
    expect(counters.read('k', 1000)).toEqual({ current: 2, ttl: 600 });
    vi.setSystemTime(1_000_999);
    expect(counters.incr('k', 1000)).toEqual({ current: 3, ttl: 1 });
    vi.setSystemTime(1_001_000);
    expect(counters.read('k', 1000)).toEqual({ current: 0, ttl: 0 });
    expect(counters.incr('k', 1000)).toEqual({ current: 1, ttl: 1000 });
    // Another key has its own window.
    expect(counters.incr('other', 1000)).toEqual({ current: 1, ttl: 1000 });
    expect(counters.read('k', 1000).current).toBe(1);
  });

  it('stays bounded when full: a slot whose window ended is taken first, else the oldest window', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const counters = new RateLimitCounters(16);
    // 16 keys, one a millisecond: the table is full. key-3's window is short.
    for (let i = 0; i < 16; i++) {
      vi.setSystemTime(1_000_000 + i);
      counters.incr(`key-${i}`, i === 3 ? 5 : 60_000);
      counters.incr(`key-${i}`, i === 3 ? 5 : 60_000);
    }
    vi.setSystemTime(1_000_016);
    const counts = () => Array.from({ length: 16 }, (_, i) => counters.read(`key-${i}`, i === 3 ? 5 : 60_000).current);
    // key-3's window has ended (at 1,000,008): a new key takes its slot, and every running window is kept.
    expect(counts()).toEqual([2, 2, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(counters.incr('new-1', 60_000).current).toBe(1);
    expect(counts()).toEqual([2, 2, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    // Full, every window running: the one that started first (key-0's) is replaced, then the next (key-1's).
    expect(counters.incr('new-2', 60_000).current).toBe(1);
    expect(counts()).toEqual([0, 2, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(counters.incr('new-3', 60_000).current).toBe(1);
    expect(counts()).toEqual([0, 0, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(counters.read('new-1', 60_000).current).toBe(1);
    expect(counters.read('new-2', 60_000).current).toBe(1);
    // A thousand more keys: the table holds 16 windows, the newest ones, and still counts each.
    for (let i = 0; i < 1000; i++) {
      vi.setSystemTime(1_000_100 + i);
      expect(counters.incr(`flood-${i}`, 60_000).current).toBe(1);
    }
    const kept = Array.from({ length: 1000 }, (_, i) => counters.read(`flood-${i}`, 60_000).current);
    expect(kept.slice(-16)).toEqual(Array(16).fill(1));
    expect(kept.reduce((sum, c) => sum + c, 0)).toBe(16);
  });

  it('is released when a thread ends holding it', async () => {
    const counters = new RateLimitCounters();
    // As if thread 999 stopped between taking the lock and giving it back.
    const lock = new Int32Array(counters.buffer, 0, 1);
    Atomics.store(lock, 0, 999 + 1);
    const gate = new SharedArrayBuffer(4);
    Atomics.store(new Int32Array(gate), 0, 1);
    const worker = startWorker(new URL('../../testing/rate-limit-hammer.js', import.meta.url), {
      buffer: counters.buffer,
      gate,
      key: 'k',
      attempts: 1,
      max: 1,
      windowMs: 60_000,
    });
    try {
      let done = false;
      const result = once(worker, 'message')
        .then(() => once(worker, 'message'))
        .then(([message]) => ((done = true), message as { allowed: number }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(done).toBe(false);
      RateLimitCounters.releaseHeldBy(counters.buffer, 999);
      expect(await result).toEqual({ allowed: 1, highest: 1 });
    } finally {
      await worker.terminate();
    }
  });

  it('counts for @fastify/rate-limit: its keys under the name space, a 429 past max', async () => {
    const counters = new RateLimitCounters();
    const app = Fastify();
    await app.register(fastifyRateLimit, {
      max: 2,
      timeWindow: 60_000,
      ...rateLimitStorage('test:', undefined, counters),
    });
    app.get('/', async () => 'ok');
    // createRateLimit (the desk's sign-in budget) counts in the same table, under the same name space.
    const count = app.createRateLimit({ max: 1, timeWindow: 60_000, keyGenerator: () => 'sign-in:victim' });
    app.get('/sign-in', { config: { rateLimit: false } }, async (request) => {
      const counted = await count(request);
      return { exceeded: !counted.isAllowed && counted.isExceeded };
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.inject({ url: '/' })).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    expect(counters.read('test:127.0.0.1', 60_000).current).toBe(3);
    expect((await app.inject({ url: '/sign-in' })).json()).toEqual({ exceeded: false });
    expect((await app.inject({ url: '/sign-in' })).json()).toEqual({ exceeded: true });
    expect(counters.read('test:sign-in:victim', 60_000).current).toBe(2);
    await app.close();
  });
});
