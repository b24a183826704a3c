// The answer records of one data set, each already written as JSON (UTF-8), built with the index. A page of a
// search is then its rows' bytes copied one after another into one buffer: no objects per record, no
// JSON.stringify and no UTF-8 encoding per request, where most of a large page's time went (docs/search-index.md,
// "Answer documents"); they cost the same once per row here, when the index is built.
//
// A branch's record starts with the head office it is asked under (spec §4.3), the one field that is not the
// row's own: its document holds a placeholder of the same length (head office codes are six characters that
// JSON writes as they are), and each answer writes the asked head office over it.
//
// With index snapshots on (snapshot.ts), the bytes stay in the snapshot file and each answer reads its rows'
// runs from there (`FileBytes`): a large index is then the operating system's page cache, shared and evictable,
// not the server's resident memory (the memory target); a page of scattered rows is a read a run.

import { close, closeSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { ByteWriter, writeAll } from './byte-writer';
import type { FileBytes } from './byte-writer';

/** The gzip pieces of one document table. */
export interface GzipTable {
  /** The records (above); in memory or in a file, as the documents are. */
  bytes: Uint8Array | FileBytes;
  /** Row r's record is bytes[offsets[r]…offsets[r+1]-1]. */
  offsets: Uint32Array;
  /** The CRC-32 of each row's deflated part (its document from `prefix` on, without the comma). */
  crcs: Uint32Array;
  /** How many bytes of every document go in the stored part: the same bytes in every row. */
  prefix: number;
}

/** Every row's document: bytes[offsets[row]…offsets[row+1]-1], in memory or in a file. */
export interface DocumentTable {
  bytes: Uint8Array | FileBytes;
  offsets: Uint32Array;
  /** The same documents as gzip records (gzip-documents.ts), when they were made. */
  gzip?: GzipTable;
}

export const inFile = (bytes: Uint8Array | FileBytes): bytes is FileBytes => !ArrayBuffer.isView(bytes);

/** Renders a row's document as JSON text (without the comma). */
export type RenderDocument = (row: number) => string;
/** Writes every row's document somewhere: into memory (encodeDocuments) or a file (documentsToFile). */
export type EncodeDocuments = (table: 'branches' | 'agents', count: number, render: RenderDocument) => DocumentTable;

/** Writes each row's JSON text, as `render` gives it, followed by a comma, into one buffer of the exact size. */
export function encodeDocuments(count: number, render: RenderDocument): DocumentTable {
  const writer = ByteWriter.inMemory(count * 256);
  const offsets = encode(count, render, writer);
  // Shared: the serving threads answer from these same bytes (strings.ts, build.ts shareIndex).
  return { bytes: writer.finish(), offsets };
}

/**
 * The same documents written into the file `path` (created or emptied) through a buffer of a few MB, for an
 * index whose answers will read them from a file (its snapshot): building one then never holds them in memory
 * (at a million rows that was ~0.9 GB at the peak of a build: the growing buffer and its exact-size copy).
 */
export function encodeDocumentsToFile(path: string, count: number, render: RenderDocument): DocumentTable {
  return writeAll(ByteWriter.toFile(path), (writer) => {
    const offsets = encode(count, render, writer);
    return { bytes: writer.finish(), offsets };
  });
}

/** The loop both write with: each row's text and a comma, one after another. */
function encode(count: number, render: RenderDocument, writer: ByteWriter): Uint32Array {
  const offsets = new Uint32Array(count + 1);
  for (let row = 0; row < count; row++) {
    const text = render(row);
    // A UTF-16 unit is at most 3 bytes of UTF-8; make room before writing rather than measuring every text twice.
    const buffer = writer.room(text.length * 3 + 1);
    let used = writer.used;
    used += buffer.write(text, used, 'utf8');
    buffer[used++] = 0x2c; // ,
    writer.used = used;
    const at = writer.position();
    if (at > 0xffffffff) throw new Error('the answer documents exceed 4 GiB');
    offsets[row + 1] = at;
  }
  return offsets;
}

/** Bytes written over every row's document at `at` (a branch's asked head office, over its placeholder). */
export interface PagePatch {
  at: number;
  bytes: Uint8Array;
}

/** A page answer's `pagination` (contract: pageOf). */
export interface Pagination {
  pageNumber: number;
  pageSize: number;
  totalItems: number;
  totalPages: number;
}

/**
 * What a page answer is written from (pageBody, gzipPageBody): where the rows' documents are, the rows, the patch
 * written into each, the pagination, and what allocates the answer's bytes (Buffer.allocUnsafe unless given).
 */
export type PageParts = [
  source: DocumentSource,
  rows: ArrayLike<number>,
  patch: PagePatch | null,
  pagination: Pagination,
  allocate?: (length: number) => Buffer,
];

/** The length of pageBody's answer for `rows`, without its pagination: the documents and `{"data":[`. */
export function pageLength(table: DocumentTable, rows: ArrayLike<number>): number {
  const { offsets } = table;
  let length = 9;
  for (let i = 0; i < rows.length; i++) length += offsets[rows[i] + 1] - offsets[rows[i]];
  return length;
}

/**
 * Writes a page answer `{"data":[…],"pagination":{…}}` (the shape of `pageOf`, keys in the same order) from the
 * documents of `rows`. Each document ends with a comma, so the documents of consecutive rows (pages are mostly
 * runs of them) are one copy; the last comma becomes the `]`. `patch`, when given, is written into each
 * record at `patchAt` (the asked head office, over the documents' placeholder of the same length).
 */
export function pageBody(
  table: DocumentTable,
  ...[source, rows, patch, pagination, allocate = Buffer.allocUnsafe]: PageParts
): Buffer {
  const open = '{"data":[';
  const close = `],"pagination":${JSON.stringify(pagination)}}`;
  const { offsets } = table;
  let length = open.length + Buffer.byteLength(close) - (rows.length > 0 ? 1 : 0);
  for (let i = 0; i < rows.length; i++) length += offsets[rows[i] + 1] - offsets[rows[i]];
  const body = allocate(length);
  let at = body.write(open, 0, 'latin1');
  for (let i = 0; i < rows.length;) {
    let last = i;
    while (last + 1 < rows.length && rows[last + 1] === rows[last] + 1) last++;
    const from = offsets[rows[i]];
    source.copy(body, at, from, offsets[rows[last] + 1]);
    if (patch) {
      for (let k = i; k <= last; k++) {
        const place = at + offsets[rows[k]] - from + patch.at;
        for (let c = 0; c < patch.bytes.length; c++) body[place + c] = patch.bytes[c];
      }
    }
    at += offsets[rows[last] + 1] - from;
    i = last + 1;
  }
  body.write(close, rows.length > 0 ? at - 1 : at, 'utf8');
  return body;
}

/** Reads bytes kept in a file start to end, 8 MB at a time into one buffer, handing each piece to `piece`. */
export function readInPieces(bytes: FileBytes, piece: (chunk: Buffer, length: number, offset: number) => void): void {
  const chunk = Buffer.allocUnsafe(Math.min(8 * 1024 * 1024, Math.max(bytes.byteLength, 1)));
  const fd = openSync(bytes.file, 'r');
  try {
    for (let done = 0; done < bytes.byteLength;) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, bytes.byteLength - done), bytes.at + done);
      if (n === 0) throw new Error(`${bytes.file} ends early`);
      piece(chunk, n, done);
      done += n;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads documents kept in a file once into nothing: the page cache then holds them before the first answer needs
 * them (after a reboot, the first answers would each wait for the disk). For an index read from its snapshot.
 */
export const readThrough = (bytes: FileBytes) => readInPieces(bytes, () => {});

/** Copies source bytes [sourceStart, sourceEnd) into `target` at `targetStart` (Buffer#copy's order). */
export interface DocumentSource {
  copy(target: Buffer, targetStart: number, sourceStart: number, sourceEnd: number): number;
  /** Lets the file go (a file source); nothing for bytes in memory. */
  close(): void;
}

/**
 * Where the answers' bytes are copied from: a Buffer over the bytes in memory (no copy), or the file they are in,
 * opened here (a snapshot removed meanwhile stays readable through this descriptor until close()).
 */
export function documentSource(table: Pick<DocumentTable, 'bytes'>): DocumentSource {
  const { bytes } = table;
  if (!inFile(bytes)) {
    return Object.assign(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { close() {} });
  }
  const fd = openSync(bytes.file, 'r');
  let open = true;
  return {
    copy(target, targetStart, sourceStart, sourceEnd) {
      const length = sourceEnd - sourceStart;
      for (let done = 0; done < length;) {
        const n = readSync(fd, target, targetStart + done, length - done, bytes.at + sourceStart + done);
        if (n === 0) throw new Error(`the answer documents in ${bytes.file} end early`);
        done += n;
      }
      return length;
    },
    close() {
      // Closed on libuv's thread pool, not here: the last descriptor of a snapshot already removed (a newer one
      // replaced it) frees the file's blocks as it closes, and on a file system mounted with `discard` that waits
      // for the disk (seen: a serving thread's event loop held in ext4_evict_inode → blkdev_issue_discard).
      if (open) close(fd, () => {});
      open = false;
    },
  };
}

/**
 * Keeps answer documents kept in a file (an index snapshot's) in the page cache while they serve. The kernel may
 * page out file pages nobody read for a while (a VM's DAMON `pageout` of pages idle a minute, or memory pressure),
 * and a row no teller asked for lately then waits for the disk (the replace under load's p99 shows it). So the
 * files are read through every `everyMs` (under that minute), 1 MB at a time on libuv's pool with a pause between
 * reads, into one buffer that is thrown away: nothing on the event loop. Reading a page marks it accessed, so it
 * stays. Documents in memory need none of this.
 */
export class PageCacheKeeper {
  private files: FileBytes[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  private stopped = false;
  /** Passes completed (for tests and /readyz-style checks). */
  passes = 0;

  constructor(
    private readonly everyMs = 30_000,
    private readonly chunkBytes = 1024 * 1024,
    private readonly pauseMs = 2,
  ) {}

  /** From now on, keeps these (the documents of the index now serving); none: stops keeping. */
  keep(tables: DocumentTable[]): void {
    this.files = tables.flatMap((table) => [table.bytes, ...(table.gzip ? [table.gzip.bytes] : [])]).filter(inFile);
    if (this.stopped || this.timer || this.files.length === 0) return;
    this.timer = setInterval(() => {
      this.pass ??= this.readThrough().finally(() => (this.pass = undefined));
    }, this.everyMs).unref();
  }

  /** One pass over the files kept (also what the timer runs). A file removed meanwhile is skipped. */
  async readThrough(): Promise<void> {
    const buffer = Buffer.allocUnsafe(this.chunkBytes);
    for (const file of this.files) {
      let handle: FileHandle | undefined;
      try {
        handle = await open(file.file, 'r');
        // Until the file is no longer kept (a new index serves: its old pages may go).
        for (let done = 0; done < file.byteLength && !this.stopped && this.files.includes(file);) {
          const { bytesRead } = await handle.read(
            buffer,
            0,
            Math.min(buffer.length, file.byteLength - done),
            file.at + done,
          );
          if (bytesRead === 0) break;
          done += bytesRead;
          await delay(this.pauseMs);
        }
      } catch {
        // A snapshot replaced and removed meanwhile: the next pass keeps the new one.
      } finally {
        await handle?.close().catch(() => {});
      }
    }
    this.passes++;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.pass;
  }
}
