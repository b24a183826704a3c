import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { pbkdf2 } from 'node:crypto';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ByteWriter } from '../byte-writer';
import { documentSource, encodeDocuments, encodeDocumentsToFile, pageBody, type DocumentTable } from '../documents';
import { crc32, crc32Combine, gzipDocuments, gzipPageBody, gzipWorks } from '../gzip-documents';

const dir = mkdtempSync(join(tmpdir(), 'gzip-documents-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** gzip's trailer holds the CRC-32 of the content: zlib's own, to compare with. */
const zlibCrc = (bytes: Uint8Array) => gzipSync(bytes).readUInt32LE(gzipSync(bytes).length - 8);

const PREFIX = '{"office":"______",';
const PATCH_AT = PREFIX.indexOf('______');

/** Documents as the index writes them: each starting with the same prefix, some with text that does not repeat. */
function table(texts: string[], inFile = false): DocumentTable {
  const render = (row: number) => `${PREFIX}"name":${JSON.stringify(texts[row])},"row":${row}}`;
  return inFile
    ? encodeDocumentsToFile(join(dir, `documents-${Math.random()}`), texts.length, render)
    : encodeDocuments(texts.length, render);
}

const pagination = (rows: number) => ({ pageNumber: 1, pageSize: 50, totalItems: rows, totalPages: 1 });

describe('CRC-32 (the gzip trailer)', () => {
  it('two parts combine into zlib’s CRC of both; a part of a buffer is its own CRC', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        const both = Buffer.concat([a, b]);
        expect(crc32Combine(zlibCrc(a), zlibCrc(b), b.length)).toBe(zlibCrc(both));
        // Continued from the CRC of what came before, over a part of a larger buffer.
        expect(crc32(both, zlibCrc(a), a.length)).toBe(zlibCrc(both));
        expect(crc32(both, 0, 0, a.length)).toBe(zlibCrc(a));
      }),
      { numRuns: 300 },
    );
  });
});

describe('gzip answers from per-row gzip records', () => {
  it('works on this Node (else compressed answers are compressed per request)', () => {
    expect(gzipWorks()).toBe(true);
  });

  it('gunzip to exactly the uncompressed page, any rows in any order, head office written over, memory or file', () => {
    const texts = Array.from({ length: 300 }, (_, i) =>
      // Text that compresses, text that does not, UTF-8 of several widths, and empty.
      i % 7 === 0 ? '' : i % 5 === 0 ? `Ñandú ✓ 𝄞 ${i}` : `${'branch '.repeat(i % 13)}${(i * 2654435761) % 99991}`,
    );
    for (const inFile of [false, true]) {
      const documents = table(texts, inFile);
      const writer = inFile ? ByteWriter.toFile(join(dir, `gzip-${inFile}`), 4096) : ByteWriter.inMemory(1024);
      const gzip = gzipDocuments(documents, PATCH_AT + 6, writer);
      const docs = documentSource(documents);
      const records = documentSource(gzip);
      fc.assert(
        fc.property(
          // Runs of consecutive rows (one copy each) and rows on their own.
          fc.array(fc.tuple(fc.integer({ min: 0, max: 299 }), fc.integer({ min: 1, max: 8 })), {
            minLength: 1,
            maxLength: 12,
          }),
          fc.stringMatching(/^[A-Z0-9]{6}$/),
          (runs, office) => {
            const rows = runs.flatMap(([from, length]) =>
              Array.from({ length: Math.min(length, 300 - from) }, (_, k) => from + k),
            );
            const patch = { at: PATCH_AT, bytes: Buffer.from(office, 'latin1') };
            const expected = pageBody(documents, docs, rows, patch, pagination(rows.length));
            const body = gzipPageBody(documents, gzip, records, rows, patch, pagination(rows.length));
            expect(gunzipSync(body).equals(expected)).toBe(true);
            expect(expected.toString()).toContain(`"office":"${office}"`);
          },
        ),
        { numRuns: 200 },
      );
      docs.close();
      records.close();
    }
  });

  it('compress: rows of the size and kind of a branch record (~370 bytes) take a fifth less or better', () => {
    const texts = Array.from(
      { length: 200 },
      (_, i) =>
        `"bankName":"STATE BANK OF INDIA","branchName":"MAIN ROAD ${i}","branchLocation":"MAIN ROAD BRANCH","address":"${i} MAIN ROAD, NEAR BUS STAND, DISTRICT ${i % 17}, STATE","district":"DISTRICT ${i % 17}","stateName":"STATE","receivingCountry":"IN"`,
    );
    const documents = table(texts);
    const gzip = gzipDocuments(documents, PATCH_AT + 6, ByteWriter.inMemory(1024));
    expect(gzip.bytes.byteLength).toBeLessThan(documents.bytes.byteLength * 0.8);
  });

  it('refuses documents that do not all start with the stored prefix', () => {
    const documents = encodeDocuments(2, (row) => (row === 0 ? '{"a":1}' : '{"b":2}'));
    expect(() => gzipDocuments(documents, 3, ByteWriter.inMemory(64))).toThrow(/does not start as the others/);
  });
});

describe('documents read from a file', () => {
  /** This process's descriptors open on `file` (/proc/self/fd: Linux). */
  const descriptorsOn = (file: string) =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(file);
      } catch {
        return false; // closed meanwhile
      }
    }).length;

  // The last descriptor of a removed snapshot frees its blocks as it closes, which on a file system mounted with
  // `discard` waits for the disk: a serving thread's event loop must not (documents.ts, documentSource).
  it.skipIf(!existsSync('/proc/self/fd'))(
    'let their file go on the thread pool, not on the calling thread',
    async () => {
      const file = join(dir, `close-${Math.random()}`);
      const source = documentSource(encodeDocumentsToFile(file, 3, (row) => `{"row":${row}}`));
      expect(descriptorsOn(file)).toBe(1);
      rmSync(file);
      // libuv's thread pool busy first (4 threads unless UV_THREADPOOL_SIZE says more): a close queued there waits.
      const busy = Array.from({ length: Number(process.env.UV_THREADPOOL_SIZE ?? 4) }, () =>
        promisify(pbkdf2)('x', 'y', 300_000, 32, 'sha256'),
      );
      source.close();
      // Still open right after close() returns: the close is queued, not done on this thread.
      expect(descriptorsOn(file)).toBe(1);
      await Promise.all(busy);
      await expect.poll(() => descriptorsOn(file)).toBe(0);
      source.close(); // a second close does nothing
    },
  );
});
