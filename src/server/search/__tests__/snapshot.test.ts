import { gunzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createTestApp, LOOKUP_HEADERS, openTestStore, testEngines, type TestApp } from '../../../testing/test-app';
import type { LookupStore } from '../../store/store';
import { buildFromStore } from '../read-data-set';
import { SearchIndex } from '../search-index';
import { documentsScratchFile, readSnapshot, writeSnapshot } from '../snapshot';
import { encodeDocumentsToFile } from '../documents';
import { ByteWriter } from '../byte-writer';
import { indexSize } from '../index-data';
import { DEFAULT_PAGE_SIZE, agentsQuery, branchesQuery } from '../../../contract';

/**
 * Deep equality, typed arrays compared as bytes (toEqual walks a million-element array element by element: minutes).
 */
function expectSameData(actual: unknown, expected: unknown, path = 'data'): void {
  if (ArrayBuffer.isView(expected)) {
    expect(actual?.constructor, path).toBe(expected.constructor);
    const bytes = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    expect(bytes(actual as ArrayBufferView).equals(bytes(expected)), path).toBe(true);
  } else if (expected && typeof expected === 'object') {
    expect(actual && typeof actual === 'object', path).toBe(true);
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected))
      expectSameData((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
  } else expect(actual, path).toBe(expected);
}

// The index snapshot. A start whose data version has a snapshot reads it instead of building the
// index from the rows; what it serves must be exactly what a build serves.

describe('the index snapshot file', () => {
  let dir: string;
  let store: LookupStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-snapshot-'));
    store = await openTestStore('sqlite', dir);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives back the index data as it was written, typed arrays, long strings and answer documents included', async () => {
    const data = await buildFromStore(store);
    new SearchIndex(data); // writes the answer documents into `data`, as the index worker does
    const snapshots = join(dir, 'search-index');
    const { file, bytes } = writeSnapshot(snapshots, data);
    expect(statSync(file).size).toBe(bytes);
    const read = readSnapshot(snapshots, data.version);
    expectSameData(read, data);
    expect(read!.branches.bank).toBeInstanceOf(Int32Array);
    expect(read!.documents!.branches.bytes.byteLength).toBeGreaterThan(1_000_000);
    // Another data version has no snapshot: built from the store instead.
    expect(readSnapshot(snapshots, `${data.version}-other`)).toBeUndefined();
  });

  it('leaves the answer documents in the file when asked, and the index answers from there byte for byte', async () => {
    const data = await buildFromStore(store);
    const inMemory = new SearchIndex(data);
    const snapshots = join(dir, 'documents-in-file');
    const written = writeSnapshot(snapshots, data);
    // The positions writeSnapshot gives are those readSnapshot finds.
    const read = readSnapshot(snapshots, data.version, { documentsInFile: true })!;
    for (const table of ['branches', 'agents'] as const) {
      const [documents, gzip] = [data.documents![table], data.documents![table].gzip!];
      expect(read.documents![table].bytes, table).toEqual(written.documents.get(documents));
      // The gzip records (gzip-documents.ts) stay in the file too.
      expect(read.documents![table].gzip!.bytes, table).toEqual(written.documents.get(gzip));
      expect(ArrayBuffer.isView(read.documents![table].gzip!.bytes), table).toBe(false);
    }
    expect(ArrayBuffer.isView(read.documents!.branches.bytes)).toBe(false);
    expect(indexSize(read).documentsInFile).toBeGreaterThan(1_000_000);
    const fromFile = new SearchIndex(read);
    // A snapshot removed meanwhile (another version written) is still read through the open file.
    rmSync(snapshots, { recursive: true });
    const paging = { pageNumber: 1, pageSize: DEFAULT_PAGE_SIZE };
    const searches = fromFile.warmUpPaths(80).map((path) => new URL(path, 'http://test'));
    let answered = 0;
    let gzipped = 0;
    for (const url of searches) {
      const raw = Object.fromEntries(url.searchParams);
      for (const pageSize of [paging.pageSize, 1000]) {
        if (url.pathname === '/v1/banks/branches') {
          const query = { ...paging, pageSize, ...branchesQuery.parse(raw) };
          expect(fromFile.branchesJson(query).toString(), url.href).toBe(inMemory.branchesJson(query).toString());
          // The gzip answer read from the file's records is the same JSON.
          const gzip = fromFile.branchesAnswer(query, undefined, 0);
          if (gzip.encoding) {
            expect(gunzipSync(gzip.body).toString(), url.href).toBe(inMemory.branchesJson(query).toString());
            gzipped++;
          }
          answered++;
        } else if (url.pathname === '/v1/agents') {
          const query = { ...paging, pageSize, ...agentsQuery.parse(raw) };
          expect(fromFile.agentsJson(query)?.toString(), url.href).toBe(inMemory.agentsJson(query)?.toString());
          const gzip = fromFile.agentsAnswer(query, undefined, 0);
          if (gzip?.encoding) {
            expect(gunzipSync(gzip.body).toString(), url.href).toBe(inMemory.agentsJson(query)?.toString());
            gzipped++;
          }
          answered++;
        }
      }
    }
    expect(answered).toBeGreaterThan(40);
    // Every page with a row has its gzip form.
    expect(gzipped).toBeGreaterThan(20);
    fromFile.close();
    inMemory.close();
  });

  it('takes in answer documents written straight into a file (a build with snapshots), as those in memory', async () => {
    const inMemory = await buildFromStore(store);
    new SearchIndex(inMemory);
    const snapshots = join(dir, 'documents-written-to-file');
    const scratch: string[] = [];
    const data = await buildFromStore(store);
    const files: Record<string, string> = {};
    new SearchIndex(
      data,
      (table, count, render) => {
        scratch.push((files[table] = documentsScratchFile(snapshots, table)));
        return encodeDocumentsToFile(scratch.at(-1)!, count, render);
      },
      // The gzip records through a small write buffer: written in many pieces.
      (table) => {
        scratch.push((files[`${table}-gzip`] = documentsScratchFile(snapshots, `${table}-gzip`)));
        return ByteWriter.toFile(scratch.at(-1)!, 64 * 1024);
      },
    );
    for (const table of ['branches', 'agents'] as const) {
      const [expected, actual] = [inMemory, data].map((d) => d.documents![table]);
      expect(Buffer.from(actual.offsets.buffer).equals(Buffer.from(expected.offsets.buffer)), table).toBe(true);
      // More than one write buffer (4 MB) of them: the file is written in several pieces.
      expect(actual.bytes.byteLength, table).toBe(expected.bytes.byteLength);
      expect(readFileSync(files[table]).equals(expected.bytes as Uint8Array), table).toBe(true);
      expect(readFileSync(files[`${table}-gzip`]).equals(expected.gzip!.bytes as Uint8Array), table).toBe(true);
      expect(actual.gzip!.bytes.byteLength, table).toBeGreaterThan(64 * 1024);
    }
    expect(data.documents!.branches.bytes.byteLength).toBeGreaterThan(4 * 1024 * 1024);
    writeSnapshot(snapshots, data);
    expectSameData(readSnapshot(snapshots, data.version), inMemory);
  });

  it('keeps one snapshot: writing another version removes the one before', async () => {
    const data = await buildFromStore(store);
    new SearchIndex(data);
    const snapshots = join(dir, 'one');
    writeSnapshot(snapshots, { ...data, version: 'a' });
    writeSnapshot(snapshots, { ...data, version: 'b' });
    expect(readdirSync(snapshots)).toHaveLength(1);
    expect(readSnapshot(snapshots, 'a')).toBeUndefined();
    expect(readSnapshot(snapshots, 'b')?.version).toBe('b');
  });

  it('refuses a file cut short (a disk that filled up): the caller builds from the store', async () => {
    const data = await buildFromStore(store);
    new SearchIndex(data);
    const snapshots = join(dir, 'short');
    const { file, bytes } = writeSnapshot(snapshots, data);
    truncateSync(file, Math.floor(bytes / 2));
    expect(() => readSnapshot(snapshots, data.version)).toThrow(/shorter|ended early/);
  });
});

describe.each(testEngines())('a start from the index snapshot (%s)', (engine) => {
  let dir: string;
  let store: LookupStore;
  let cold: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-snapshot-start-'));
    store = await openTestStore(engine, dir);
    cold = await createTestApp({ engine });
  });
  afterAll(async () => {
    await cold?.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds and writes the snapshot on the first start, reads it on the next, and answers alike', async () => {
    const snapshotDir = join(dir, 'search-index');
    const start = async () => {
      const app = await buildApp({ store, searchIndexBuild: 'worker', searchIndexSnapshotDir: snapshotDir });
      await app.searchIndex.whenReady();
      return app;
    };
    const first = await start();
    try {
      expect(first.searchIndex.lastBuild).toMatchObject({ from: 'store', snapshotError: undefined });
      expect(first.searchIndex.lastBuild!.snapshotMs).toBeGreaterThanOrEqual(0);
    } finally {
      await first.close();
    }
    expect(readdirSync(snapshotDir)).toHaveLength(1);

    const second = await start();
    try {
      expect(second.searchIndex.lastBuild).toMatchObject({ from: 'snapshot', version: await store.dataVersion() });
      const ready = await second.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().searchIndex.from).toBe('snapshot');
      // Every warm-up search (branch searches, codes, agents) answers byte for byte as an index built inline.
      const paths = second.searchIndex.index().warmUpPaths(60);
      expect(paths.length).toBeGreaterThan(40);
      for (const url of paths) {
        const [a, b] = await Promise.all([second, cold.app].map((app) => app.inject({ url, headers: LOOKUP_HEADERS })));
        expect(a.statusCode, url).toBe(200);
        expect(a.body, url).toBe(b.body);
      }
    } finally {
      await second.close();
    }
  });
});
