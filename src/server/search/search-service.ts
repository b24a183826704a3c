import type { IncomingHttpHeaders } from 'node:http';
import type { Worker } from 'node:worker_threads';
import { StoreUnavailableError, type LookupStore } from '../store/store';
import { startWorker } from '../worker-thread';
import { indexSize, type SearchIndexData } from './index-data';
import type { IndexWorkerData, IndexWorkerMessage } from './index-worker';
import { PageCacheKeeper } from './documents';
import { buildFromStore } from './read-data-set';
import type { RememberedMatches } from './index-core';
import { SearchIndex } from './search-index';

// Holds the search index of the served data set and keeps it current. The store stays the durable source of
// truth; when its data version moves (an import here, or another instance's import on PostgreSQL), a new index
// is built off the event loop and swapped in with one assignment. A request takes the index once and answers
// from it synchronously, so every answer comes wholly from one data version.

/** An index handed from the main thread to the serving threads (serving-threads.ts): its data is shared, not copied. */
export interface HandedIndex {
  data: SearchIndexData;
  remembered: RememberedMatches;
  build: IndexBuild;
}

/**
 * Where a serving thread's indexes come from (serving-threads.ts): the main thread builds each once and hands it
 * to every thread; a serving thread builds none.
 */
export interface IndexFeed {
  /** The next index to serve, once the main thread hands one over; rejects once the feed is closed. */
  next(): Promise<HandedIndex>;
  /** This thread serves `version` now (the main thread waits for it before it serves that version itself). */
  served(version: string): void;
  /** This thread saw the store's data version move: the main thread looks at it and builds. */
  stale(): void;
  /** Resolves once the store's current data version is served (after a publish through this thread). */
  catchUp(): Promise<void>;
}

export interface SearchServiceOptions {
  store: LookupStore;
  /**
   * 'worker' (the server): built in a worker thread on its own connection. 'inline': built on this thread,
   * for stores another thread cannot open (in-memory) and small test data sets.
   */
  build?: 'worker' | 'inline';
  /** How often the store's data version is looked at, at most (on requests). */
  checkEveryMs?: number;
  log?: (message: string, details?: Record<string, unknown>) => void;
  /**
   * Runs before the first index serves (before /readyz says ready): the requests `isWarmUp` recognises are
   * answered from the new index (index() below), the others get 503 until it serves. The app drives its
   * warm-up searches through its own routes here (app.ts), so the JIT and the per-term memo are warm when
   * real traffic arrives. A failure is logged and the index serves anyway.
   */
  warmUp?: (index: SearchIndex) => Promise<void>;
  /** Whether a request is one of the warm-up's own (app.ts: a header with a per-process token). */
  isWarmUp?: (request: { headers: IncomingHttpHeaders }) => boolean;
  /**
   * Where the worker keeps index snapshots (snapshot.ts; main: DATA_DIR/search-index, INDEX_SNAPSHOTS=off for
   * none): a start whose data version has one reads it instead of building. Worker builds only.
   */
  snapshotDir?: string;
  /** A serving thread's: its indexes come from the main thread, this service builds none (serving-threads.ts). */
  feed?: IndexFeed;
  /**
   * The main thread's, with serving threads: each new index is handed to them before it serves here, and this
   * resolves once they serve it (or gave up on one), so every thread answers from it when this one does.
   */
  handOn?: (index: HandedIndex) => Promise<void>;
}

export interface IndexBuild {
  version: string;
  /** Scan and build together (they run interleaved: the rows are indexed as they are read). */
  buildMs: number;
  bytes: Record<string, number>;
  branches: number;
  agents: number;
  /** Read from its snapshot, or built from the store's rows. */
  from: 'snapshot' | 'store';
  /** The snapshot written after the build (ms), or what went wrong with it. */
  snapshotMs?: number;
  snapshotError?: string;
  /** Terms whose matches the new index got from the worker (what the index before it remembered), and their cost. */
  rememberedTerms?: number;
  rememberMs?: number;
}

export class SearchService {
  private current: SearchIndex | null = null;
  private worker: Worker | null = null;
  private closed = false;
  private building: Promise<void> | null = null;
  private checkedAt = 0;
  private readonly first: Promise<void>;
  /**
   * The index being warmed up, for the requests the warm-up makes (and only those). Not an AsyncLocalStorage:
   * on Node 20 one enables async hooks for the whole process once it has run, and every promise and socket
   * of every request then paid for them (a tenth of the event loop's time under load).
   */
  private warming: SearchIndex | null = null;
  /**
   * The serving index's answer documents, when they stay in its snapshot file, kept in the page cache
   * (documents.ts). The main thread's only: the serving threads answer from the same file, so the same pages.
   */
  readonly pageCache = new PageCacheKeeper();
  private resolveFirst!: () => void;
  /** The last build's figures (for /readyz, logs and the benchmark). */
  lastBuild: IndexBuild | null = null;
  lastError: string | null = null;

  constructor(private readonly options: SearchServiceOptions) {
    this.first = new Promise((resolve) => (this.resolveFirst = resolve));
    if (options.feed) void this.follow(options.feed);
  }

  /** A serving thread: serves each index the main thread hands over, the first once warmed up. */
  private async follow(feed: IndexFeed): Promise<void> {
    while (!this.closed) {
      let handed: HandedIndex;
      try {
        handed = await feed.next();
      } catch {
        return; // the feed is closed: the thread is stopping
      }
      const index = new SearchIndex(handed.data);
      index.remember(handed.remembered);
      if (!this.current) await this.warm(index);
      this.serve(index, handed.build);
      feed.served(index.version);
    }
  }

  /** Swaps `index` in: answers come from it from now on. */
  private serve(index: SearchIndex, build: IndexBuild): void {
    const previous = this.current;
    this.current = index;
    this.lastBuild = build;
    // Its answer documents' file (documents.ts) goes once no request can be reading it: a request takes the
    // index once and answers from it synchronously, so a minute is far more than any needs.
    if (previous) setTimeout(() => previous.close(), 60_000).unref();
    this.lastError = null;
    if (!this.options.feed) this.pageCache.keep(index.documentTables());
    this.resolveFirst();
  }

  /** Resolves once the first index is in place. */
  whenReady(): Promise<void> {
    return this.first;
  }

  get ready(): boolean {
    return this.current !== null;
  }

  /** The index to answer `request` from; a 503 (Retry-After) until the first one is built. */
  index(request?: { headers: IncomingHttpHeaders }): SearchIndex {
    if (this.warming && request && this.options.isWarmUp?.(request)) return this.warming;
    if (!this.current) throw new StoreUnavailableError('The search index is being built; retry shortly.', 2);
    return this.current;
  }

  /** Whether ensureFresh(now) would look at the store's data version (else it has nothing to do). */
  checkDue(now = Date.now()): boolean {
    return !this.closed && !this.building && now - this.checkedAt >= (this.options.checkEveryMs ?? 1000);
  }

  /** Looks at the store's data version (at most every checkEveryMs) and starts a rebuild when it moved. */
  async ensureFresh(now = Date.now()): Promise<void> {
    if (!this.checkDue(now)) return;
    this.checkedAt = now;
    const version = await this.options.store.dataVersion();
    if (version === this.current?.version) return;
    if (this.options.feed) this.options.feed.stale();
    else void this.rebuild();
  }

  /**
   * Rebuilds until the index served is the store's current data version (after a publish through this instance:
   * a build already under way may be of the version before it). At most three builds.
   */
  async catchUp(): Promise<void> {
    if (this.options.feed) return this.options.feed.catchUp();
    for (let i = 0; i < 3 && !this.closed; i++) {
      const version = await this.options.store.dataVersion();
      if (this.current?.version === version) return;
      await (this.building ?? this.rebuild());
    }
  }

  /** Builds the index of the store's current data set and swaps it in; one build at a time. */
  rebuild(): Promise<void> {
    // A serving thread builds nothing: the main thread hands its indexes over (follow).
    if (this.options.feed) return Promise.resolve();
    this.building ??= this.build()
      .then(async ({ index, handed }) => {
        // The first index warms up through the routes (the JIT, before /readyz says ready), here and in the
        // serving threads at once. A later one does not: the code is warm, its worker found what tellers searched
        // lately, and a warm-up's cold searches would each hold the event loop while lookups wait.
        const handOn = this.options.handOn?.(handed);
        if (!this.current) await this.warm(index);
        await handOn;
        this.serve(index, handed.build);
      })
      .catch((error: Error) => {
        // The previous index (if any) keeps answering; the next check tries again.
        this.lastError = error.message;
        this.options.log?.('search index build failed', { err: error.message });
      })
      .finally(() => {
        this.building = null;
        this.checkedAt = Date.now();
      });
    return this.building;
  }

  /** The last warm-up's figures (for /readyz and the benchmark). */
  lastWarmUpMs: number | null = null;

  private async warm(index: SearchIndex): Promise<void> {
    const warmUp = this.options.warmUp;
    if (!warmUp || this.closed) return;
    const started = performance.now();
    try {
      this.warming = index;
      await warmUp(index);
    } catch (error) {
      this.options.log?.('search index warm-up failed; serving it anyway', { err: (error as Error).message });
    } finally {
      this.warming = null;
    }
    this.lastWarmUpMs = Math.round(performance.now() - started);
    this.options.log?.('search index warmed up', { version: index.version, warmUpMs: this.lastWarmUpMs });
  }

  /** Stops a build under way (the app is closing). */
  async close(): Promise<void> {
    this.closed = true;
    await this.pageCache.stop();
    await this.worker?.terminate();
    this.current?.close();
  }

  private async build(): Promise<{ index: SearchIndex; handed: HandedIndex }> {
    const { store } = this.options;
    const source = store.source;
    let build: IndexBuild;
    let index: SearchIndex;
    let handed: Omit<HandedIndex, 'build'>;
    if (this.options.build === 'inline' || !source) {
      const started = performance.now();
      const data = await buildFromStore(store);
      index = new SearchIndex(data);
      handed = { data, remembered: {} };
      build = {
        version: data.version,
        buildMs: performance.now() - started,
        bytes: indexSize(data),
        branches: index.branchCount,
        agents: index.agentCount,
        from: 'store',
      };
    } else {
      const message = await new Promise<Extract<IndexWorkerMessage, { type: 'built' }>>((resolve, reject) => {
        const worker = startWorker(new URL('./index-worker.js', import.meta.url), {
          source,
          snapshotDir: this.options.snapshotDir,
          terms: this.current?.rememberedTerms(),
        } satisfies IndexWorkerData);
        this.worker = worker;
        worker.on('message', (m: IndexWorkerMessage) => {
          if (m.type === 'built') resolve(m);
          else reject(new Error(m.message));
        });
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`the index worker stopped (exit code ${code})`)));
      });
      this.worker = null;
      index = new SearchIndex(message.data);
      index.remember(message.remembered);
      handed = { data: message.data, remembered: message.remembered };
      build = {
        version: message.data.version,
        buildMs: message.buildMs,
        bytes: message.bytes,
        branches: index.branchCount,
        agents: index.agentCount,
        from: message.from,
        snapshotMs: message.snapshotMs,
        snapshotError: message.snapshotError,
        rememberedTerms: Object.values(message.remembered).reduce((n, list) => n + list.length, 0),
        rememberMs: Math.round(message.rememberMs),
      };
    }
    this.options.log?.('search index built', { ...build, buildMs: Math.round(build.buildMs) });
    return { index, handed: { ...handed, build } };
  }
}
