import { parentPort, workerData } from 'node:worker_threads';
import { DEFAULT_PAGE_SIZE, agentsQuery, branchesQuery } from '../../contract';
import { yieldToLookups } from '../worker-thread';
import { openOwnConnection } from '../store/own-connection';
import type { StoreSource } from '../store/store';
import { buildFromStore } from './read-data-set';
import { indexSize, shareIndex, type SearchIndexData } from './index-data';
import { shared } from './strings';
import type { GzipWriter, RememberedMatches, TextName } from './index-core';
import { SearchIndex } from './search-index';
import { ByteWriter } from './byte-writer';
import { documentsScratchFile, readSnapshot, writeSnapshot } from './snapshot';
import { encodeDocumentsToFile, inFile, readThrough, type EncodeDocuments } from './documents';
import { rmSync } from 'node:fs';

// A worker thread of the server: opens its own connection to the store, scans the served data set (one
// version), builds the search index and posts it to the main thread (the typed arrays move without a copy).
// The main thread keeps answering from the index it has meanwhile. With a snapshot folder (snapshot.ts), the
// index of the served version is read from its snapshot when there is one, and a newly built one is written
// there before it is posted; the index then answers from the snapshot's answer documents, which stay in that file
// (documents.ts).

export interface IndexWorkerData {
  source: StoreSource;
  /** Where index snapshots are kept (DATA_DIR/search-index); none: always built from the store. */
  snapshotDir?: string;
  /**
   * The terms the index now serving remembers (what tellers searched lately): their matches in the new index
   * are found here and posted with it, so the new index answers them at once after the swap.
   */
  terms?: Partial<Record<TextName, string[]>>;
}

export type IndexWorkerMessage =
  | {
      type: 'built';
      data: SearchIndexData;
      buildMs: number;
      bytes: Record<string, number>;
      /** 'snapshot': read from the snapshot of its version; 'store': built from the rows. */
      from: 'snapshot' | 'store';
      /** Snapshot written (ms), or why it could not be read or written. */
      snapshotMs?: number;
      snapshotError?: string;
      /** The matches of IndexWorkerData.terms in this index (SearchIndex.remember). */
      remembered: RememberedMatches;
      /** Finding them took (ms). */
      rememberMs: number;
    }
  | { type: 'failed'; message: string };

/**
 * The new index's per-term memo, filled here rather than on the event loop. A swap: the matches of the terms the
 * serving index remembers (what tellers searched lately). The first index: the warm-up's searches (the words of
 * rows spread over the data set, SearchIndex.warmUpPaths), parsed by the routes' own query schemas and answered
 * by this index. Everything it then remembers is posted with it (each result in a buffer of its own, moved).
 */
function matches(data: SearchIndexData, terms: IndexWorkerData['terms'] & object, index = new SearchIndex(data)) {
  const started = performance.now();
  const swap = Object.values(terms).some((list) => list.length > 0);
  if (swap) index.matchesOf(terms);
  for (const path of swap ? [] : index.warmUpPaths()) {
    const url = new URL(path, 'http://warm-up');
    const raw = Object.fromEntries(url.searchParams);
    const paging = { pageNumber: 1, pageSize: DEFAULT_PAGE_SIZE };
    if (url.pathname === '/v1/banks/branches') {
      const query = branchesQuery.safeParse(raw);
      if (query.success) index.branchesJson({ ...paging, ...query.data });
    } else if (url.pathname === '/v1/agents') {
      const query = agentsQuery.safeParse(raw);
      if (query.success) index.agentsJson({ ...paging, ...query.data });
    }
  }
  const remembered = index.matchesOf(index.rememberedTerms());
  return { remembered, rememberMs: performance.now() - started };
}

/**
 * Posts the index. Its typed arrays (the string tables' bytes too) and the remembered matches are
 * SharedArrayBuffer-backed (shareIndex): nothing of them is copied, here or in any serving thread it is handed on to.
 */
function post(message: Extract<IndexWorkerMessage, { type: 'built' }>) {
  shareIndex(message.data);
  for (const list of Object.values(message.remembered)) for (const entry of list) entry[1] = shared(entry[1]);
  parentPort!.postMessage(message);
}

async function run() {
  yieldToLookups();
  const { source, snapshotDir, terms = {} } = workerData as IndexWorkerData;
  const store = openOwnConnection(source);
  try {
    const started = performance.now();
    let snapshotError: string | undefined;
    if (snapshotDir) {
      try {
        const data = readSnapshot(snapshotDir, await store.dataVersion(), { documentsInFile: true });
        if (data) {
          // The answer documents stay in the file (documents.ts): into the page cache before the index serves.
          for (const table of Object.values(data.documents ?? {}))
            for (const holder of [table, table.gzip]) if (holder && inFile(holder.bytes)) readThrough(holder.bytes);
          const buildMs = performance.now() - started;
          post({
            type: 'built',
            data,
            buildMs,
            bytes: indexSize(data),
            from: 'snapshot',
            ...matches(data, terms),
          });
          return;
        }
      } catch (error) {
        snapshotError = `reading the snapshot: ${(error as Error).message}`;
      }
    }
    const data = await buildFromStore(store);
    // Making the index writes the answer documents into `data` (documents.ts): here, off the main thread. With
    // snapshots, straight into files (never all in memory), which the snapshot then takes in.
    const scratch: string[] = [];
    const toFile: EncodeDocuments = (table, count, render) => {
      scratch.push(documentsScratchFile(snapshotDir!, table));
      return encodeDocumentsToFile(scratch.at(-1)!, count, render);
    };
    // Their gzip records (gzip-documents.ts) the same way.
    const gzipToFile: GzipWriter = (table) => {
      scratch.push(documentsScratchFile(snapshotDir!, `${table}-gzip`));
      return ByteWriter.toFile(scratch.at(-1)!);
    };
    let index: SearchIndex;
    try {
      index = snapshotDir ? new SearchIndex(data, toFile, gzipToFile) : new SearchIndex(data);
    } catch (error) {
      for (const file of scratch) rmSync(file, { force: true });
      throw error;
    }
    const buildMs = performance.now() - started;
    const found = matches(data, terms, index);
    let snapshotMs: number | undefined;
    if (snapshotDir) {
      // Before the post: posting hands the buffers over (they are empty here after it).
      const writing = performance.now();
      try {
        const written = writeSnapshot(snapshotDir, data);
        snapshotMs = performance.now() - writing;
        // The answers read the documents from the snapshot from now on (from the scratch files if it could not be
        // written: they then stay until a later snapshot's clean-up removes them).
        for (const [holder, bytes] of written.documents) holder.bytes = bytes;
        for (const file of scratch) rmSync(file, { force: true });
      } catch (error) {
        snapshotError = `writing the snapshot: ${(error as Error).message}`;
      }
    }
    post({
      type: 'built',
      data,
      buildMs,
      bytes: indexSize(data),
      from: 'store',
      snapshotMs,
      snapshotError,
      ...found,
    });
  } finally {
    await store.close();
  }
}

run().catch((error: Error) =>
  parentPort!.postMessage({ type: 'failed', message: error.stack ?? String(error) } satisfies IndexWorkerMessage),
);
