import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { FastifyListenOptions } from 'fastify';
import { loadConfig } from './config';
import { startApp } from './start-app';
import { RateLimitCounters } from './rate-limit-counters';
import type { HandedIndex, IndexFeed } from './search/search-service';
import type { FromServingThread, ServingThreadData, ToServingThread } from './serving-threads';

// One serving thread of SERVING_THREADS=n (serving-threads.ts): the same app as the main thread's, on its own store
// connection and the main thread's rate-limit counters, answering from the indexes the main thread hands over; it
// listens on the main thread's socket once its first index is warm.

/** The indexes from the main thread, and this thread's word back (search-service.ts IndexFeed). */
class MainThreadFeed implements IndexFeed {
  /** The newest index handed over and not yet taken (an older one waiting is of no use any more). */
  private handed: HandedIndex | null = null;
  private waiting: { resolve: (index: HandedIndex) => void; reject: (error: Error) => void } | null = null;
  private closed = false;
  private listening = false;
  private servedBeforeListening: string | null = null;
  private catchUps = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private nextId = 0;

  constructor(
    private readonly port: MessagePort,
    onClose: () => void,
  ) {
    port.on('message', (message: ToServingThread) => {
      if (message.type === 'index') {
        if (this.waiting) this.waiting.resolve(message.handed);
        else this.handed = message.handed;
        this.waiting = null;
      } else if (message.type === 'caught-up') {
        const waiter = this.catchUps.get(message.id);
        this.catchUps.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error));
        else waiter?.resolve();
      } else if (message.type === 'close') {
        this.closed = true;
        this.waiting?.reject(new Error('closing'));
        this.waiting = null;
        // A publish waiting for the main thread's catch-up is not answered once closing: fail it now.
        for (const waiter of this.catchUps.values()) waiter.reject(new Error('closing'));
        this.catchUps.clear();
        onClose();
      }
    });
  }

  next(): Promise<HandedIndex> {
    if (this.closed) return Promise.reject(new Error('closing'));
    const handed = this.handed;
    this.handed = null;
    if (handed) return Promise.resolve(handed);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  served(version: string): void {
    // The main thread counts this thread as serving once it also accepts connections.
    if (!this.listening) this.servedBeforeListening = version;
    else this.post({ type: 'served', version });
  }

  /** This thread accepts connections now. */
  listens(): void {
    this.listening = true;
    if (this.servedBeforeListening) this.post({ type: 'served', version: this.servedBeforeListening });
    this.servedBeforeListening = null;
  }

  stale(): void {
    this.post({ type: 'stale' });
  }

  catchUp(): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.catchUps.set(id, { resolve, reject });
      this.post({ type: 'catch-up', id });
    });
  }

  post(message: FromServingThread): void {
    this.port.postMessage(message);
  }
}

async function run() {
  const { fd, rateLimitCounters, leaseOwner } = workerData as ServingThreadData;
  const config = loadConfig();
  let closing: Promise<void> | null = null;
  let close: (() => Promise<void>) | null = null;
  const feed = new MainThreadFeed(parentPort!, () => {
    closing ??= (close?.() ?? Promise.resolve()).finally(() => feed.post({ type: 'closed' }));
  });
  // The main thread checked the database file before it started this thread (open-store.ts): not twice.
  // The rate-limit counters are the main thread's table: every thread of the process counts in it.
  const started = await startApp(
    config,
    { searchIndexFeed: feed },
    {
      seedOnStart: false,
      checkIntegrity: false,
      rateLimitCounters: rateLimitCounters && new RateLimitCounters(rateLimitCounters),
      leaseOwner,
    },
  );
  close = started.close;
  if (closing) return started.close().finally(() => feed.post({ type: 'closed' }));
  await started.app.searchIndex.whenReady();
  // A host other than "localhost" (Fastify would also bind the other loopback addresses); the descriptor is
  // what is listened on.
  await started.app.listen({ fd, host: '127.0.0.1' } as FastifyListenOptions);
  feed.listens();
}

run().catch((error: Error) => {
  console.error(`A serving thread could not start: ${error.stack ?? error.message}`);
  process.exit(1);
});
