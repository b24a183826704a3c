import type { Server } from 'node:net';
import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { HandedIndex, SearchService } from './search/search-service';
import { startWorker } from './worker-thread';
import { RateLimitCounters } from './rate-limit-counters';

// SERVING_THREADS=n: n threads of one process answer on the one port, all from one search index.
//
// The main thread opens the store, listens and builds each index (in its index worker, as with one thread); the
// other n-1 threads each run the same app on their own store connection and accept connections from the same
// listening socket. An index's typed arrays, string tables included, live in SharedArrayBuffers (strings.ts,
// build.ts shareIndex), so handing it to a thread copies only its small structure: every thread answers from the
// same bytes, and the memory of the index is held once.
//
// - The first index: each thread warms it up through its own routes, and the main thread says ready (/readyz)
//   only once every thread listens and serves it, so no connection meets a cold thread.
// - A new index (a publish, an import, another instance's publish on PostgreSQL): the main thread serves it once
//   every thread does (each answer still comes wholly from one data version, named in x-data-version). A thread
//   that sees the store's version move first tells the main thread, which builds; a publish made through a
//   thread returns once every thread serves it (catchUp).
// - A thread that dies is started again a second later; the others keep serving meanwhile.
// - What the threads share besides the index: the rate-limit counters, a table in shared memory each thread
//   counts in (rate-limit-counters.ts; with Redis, Redis's), so a client's budget is the process's whichever
//   threads its connections land on. What each keeps for itself: its connection caps per address, its /metrics
//   (a scrape reads the thread that answers it), its reference cache.
//
// The listening socket is shared by its descriptor: threads of a process share descriptors, and a server that
// listens on one accepts from the same socket; the kernel hands each connection to one thread. Node 20 has no
// `reusePort`, and the descriptor is read from the server's handle (`_handle.fd`, libuv's socket on Unix). At a
// stop the threads close first (the first close ends the socket for all: new connections are refused), then the
// main thread; its own close of the same number then fails harmlessly (EBADF), as nothing opens a descriptor
// in between.

/** What a serving thread is started with. */
export interface ServingThreadData {
  /** The listening socket's descriptor (the main thread's server). */
  fd: number;
  /** The main thread's rate-limit counters (RateLimitCounters.buffer); none with Redis. */
  rateLimitCounters?: SharedArrayBuffer;
  /** The process's desk lease holder id (desk/recovery.ts). */
  leaseOwner: string;
}

/** Main thread → serving thread. */
export type ToServingThread =
  { type: 'index'; handed: HandedIndex } | { type: 'caught-up'; id: number; error?: string } | { type: 'close' };

/** Serving thread → main thread. */
export type FromServingThread =
  { type: 'served'; version: string } | { type: 'stale' } | { type: 'catch-up'; id: number } | { type: 'closed' };

/** How long the main thread waits for a thread to serve its first index (it warms up), and a later one. */
const FIRST_INDEX_WAIT_MS = 120_000;
const INDEX_WAIT_MS = 10_000;
const RESTART_AFTER_MS = 1000;

interface Thread {
  worker: Worker;
  /** The data version it serves, once it said so. */
  serving: string | null;
  /** Waiting for it to serve a version (or to stop). */
  waiters: { version: string; resolve: () => void }[];
  closed: Promise<void>;
}

export class ServingThreads {
  private readonly threads = new Set<Thread>();
  private latest: HandedIndex | null = null;
  private search: SearchService | null = null;
  private log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> = console;
  private fd = -1;
  private stopping = false;
  private resolveStarted!: () => void;
  /** Resolves once the threads have been started (the main thread listens first). */
  private readonly started = new Promise<void>((resolve) => (this.resolveStarted = resolve));

  private readonly rateLimitCounters?: RateLimitCounters;
  private readonly leaseOwner: string;

  constructor(
    private readonly count: number,
    shared: { rateLimitCounters?: RateLimitCounters; leaseOwner: string },
  ) {
    this.rateLimitCounters = shared.rateLimitCounters;
    this.leaseOwner = shared.leaseOwner;
  }

  /** The main thread's search service (it builds on a thread's word) and log. */
  attach(search: SearchService, log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>): void {
    this.search = search;
    this.log = log;
  }

  /** Starts the threads on the listening socket of `server`. */
  start(server: Server): void {
    const fd = (server as unknown as { _handle?: { fd?: number } })._handle?.fd;
    if (typeof fd !== 'number' || fd < 0)
      throw new Error('SERVING_THREADS: the listening socket has no descriptor to share on this platform');
    this.fd = fd;
    for (let i = 0; i < this.count; i++) this.spawn();
    this.resolveStarted();
  }

  /**
   * The main thread's search service calls this with each index it built, before it serves it: resolves once
   * every thread serves it (or stopped, or took longer than it may: then it is logged and serves it later).
   */
  handOn = async (handed: HandedIndex): Promise<void> => {
    const first = this.latest === null;
    this.latest = handed;
    await this.started;
    const wait = first ? FIRST_INDEX_WAIT_MS : INDEX_WAIT_MS;
    await Promise.all(
      [...this.threads].map((thread) => {
        thread.worker.postMessage({ type: 'index', handed } satisfies ToServingThread);
        return this.served(thread, handed.build.version, wait);
      }),
    );
  };

  /** Stops every thread: each finishes its in-flight requests and closes its store. */
  async close(): Promise<void> {
    this.stopping = true;
    this.resolveStarted();
    await Promise.all(
      [...this.threads].map(async (thread) => {
        thread.worker.postMessage({ type: 'close' } satisfies ToServingThread);
        await thread.closed;
        await thread.worker.terminate();
      }),
    );
  }

  private served(thread: Thread, version: string, waitMs: number): Promise<void> {
    if (thread.serving === version || !this.threads.has(thread)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.log.warn(
          { version, threadId: thread.worker.threadId },
          'a serving thread did not take the new index in time',
        );
        resolve();
      }, waitMs);
      thread.waiters.push({
        version,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  private spawn(): void {
    const worker = startWorker(new URL('./serving-thread.js', import.meta.url), {
      fd: this.fd,
      rateLimitCounters: this.rateLimitCounters?.buffer,
      leaseOwner: this.leaseOwner,
    } satisfies ServingThreadData);
    const { threadId } = worker;
    let closed!: () => void;
    const thread: Thread = { worker, serving: null, waiters: [], closed: new Promise((r) => (closed = r)) };
    this.threads.add(thread);
    worker.on('message', (message: FromServingThread) => {
      if (message.type === 'served') {
        thread.serving = message.version;
        for (const waiter of thread.waiters.filter((w) => w.version === message.version)) waiter.resolve();
        thread.waiters = thread.waiters.filter((w) => w.version !== message.version);
      } else if (message.type === 'stale') {
        void this.search?.catchUp().catch(() => {});
      } else if (message.type === 'catch-up') {
        const answer = (error?: string) =>
          worker.postMessage({ type: 'caught-up', id: message.id, error } satisfies ToServingThread);
        if (!this.search) answer('the main thread has no search service yet');
        else
          this.search.catchUp().then(
            () => answer(),
            (error: Error) => answer(error.message),
          );
      } else if (message.type === 'closed') closed();
    });
    worker.on('error', (error) => this.log.error({ err: error }, 'a serving thread failed'));
    worker.on('exit', (code) => {
      // Ended while counting (out of memory, say): the lock it held is released, or every thread would wait.
      if (this.rateLimitCounters) RateLimitCounters.releaseHeldBy(this.rateLimitCounters.buffer, threadId);
      this.threads.delete(thread);
      closed();
      for (const waiter of thread.waiters) waiter.resolve();
      if (this.stopping) return;
      this.log.error({ code }, 'a serving thread stopped; starting another');
      setTimeout(() => {
        if (!this.stopping) this.spawn();
      }, RESTART_AFTER_MS).unref();
    });
    if (this.latest) worker.postMessage({ type: 'index', handed: this.latest } satisfies ToServingThread);
  }
}
