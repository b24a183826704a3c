import { DeflateRaw, gunzipSync, crc32 as zlibCrc32, constants as zlib } from 'node:zlib';
import { documentSource, type DocumentSource, type DocumentTable, type GzipTable, type PageParts } from './documents';
import { ByteWriter } from './byte-writer';

// Search answers gzip-compressed without compressing anything per request (a browser's
// Accept-Encoding is to cost at most a fifth of the throughput, and the fastest encoder zlib has, Brotli at
// quality 0, costs about half a search for a page).
//
// Deflate (RFC 1951) is a sequence of blocks, and a block may only refer back to bytes the decoder has already
// written. Each row's document is compressed once, when the index is built, on its own (zlib's Z_FULL_FLUSH after
// every row: nothing refers outside the row) into blocks that end on a byte boundary. An answer is then a gzip
// member (RFC 1952) put together from those pieces, copied like the uncompressed answer's documents
// (documents.ts pageBody): the few bytes that are not any row's own (`{"data":[`, the commas, the head office a
// branch is asked under, `],"pagination":{…}}`) go between the rows as stored (uncompressed) blocks. The gzip
// trailer's CRC-32 of the whole answer is made from each row's CRC, kept with it, and the CRC of those few bytes
// (zlib.crc32 for the parts; zlib's crc32_combine, which Node does not expose, in JavaScript).
//
// Each row's record, one after another as the documents are (consecutive rows are one copy):
//
//     LEN NLEN (2 + 2 bytes) | "," + the document's first `prefix` bytes (stored) | the rest, deflated
//
// where the deflated part ends with the header of an empty stored block (zlib's flush marker `00 00 FF FF`
// with its four length bytes cut off): the next record's LEN NLEN complete it, with the next row's comma and
// prefix as that block's bytes. The prefix is the part of a branch's document up to the head office it is asked
// under (documents.ts), written over per answer, as in the uncompressed answer; agents have none.
//
// The price is the size on the wire: each row compressed alone, without the rows before it as a dictionary.
// Measured on the bench's typical 50-row branch pages: see docs/compression-and-caching.md.

// ---------------------------------------------------------------------------------------------------------
// CRC-32 (gzip's: reflected, polynomial 0xEDB88320): zlib's, and combined as zlib combines it (zlib crc32.c).

const POLY = 0xedb88320;

/** The CRC-32 of bytes[from…to-1], continuing `crc` (the CRC of what came before; 0 for none). */
export const crc32 = (bytes: Uint8Array, crc = 0, from = 0, to = bytes.length): number =>
  zlibCrc32(from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to), crc);

/** a(x)·b(x) modulo the polynomial (both reflected, as zlib's multmodp). */
function multmodp(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0…31 (zlib's x2n_table). */
const X2N = (() => {
  const table = new Uint32Array(32);
  let p = 0x40000000; // x^1
  table[0] = p;
  for (let k = 1; k < 32; k++) table[k] = p = multmodp(p, p);
  return table;
})();

/** x^(8·length) modulo the polynomial: what crc32Combine multiplies by for a second part of `length` bytes. */
function shiftOf(length: number): number {
  let p = 0x80000000; // x^0
  for (let k = 3, n = length; n > 0; n = Math.floor(n / 2), k++) if (n & 1) p = multmodp(X2N[k & 31], p);
  return p;
}

/**
 * Multiplying by a fixed a(x), as four table lookups (one per byte of b: multmodp is linear in b), for the shifts
 * of the lengths documents have: a page's CRC is two such products per row (below). Made when a length is first
 * met (32 products and 1,024 exclusive-ors, 4 kB); documents have a few hundred lengths.
 */
const SHIFT_TABLES = new Map<number, Uint32Array>();

function shiftTable(length: number): Uint32Array {
  let table = SHIFT_TABLES.get(length);
  if (table) return table;
  const a = shiftOf(length);
  table = new Uint32Array(1024);
  for (let k = 0; k < 4; k++) {
    const base = k * 256;
    // A byte's product is the exclusive-or of its bits' products.
    for (let bit = 0; bit < 8; bit++) table[base + (1 << bit)] = multmodp(a, (1 << (k * 8 + bit)) >>> 0);
    for (let v = 3; v < 256; v++) {
      const low = v & -v;
      if (low !== v) table[base + v] = table[base + low] ^ table[base + (v ^ low)];
    }
  }
  // Lengths past what documents have are worked out each time rather than kept.
  if (length < 65536) SHIFT_TABLES.set(length, table);
  return table;
}

/** The CRC-32 of A followed by B, from crcA, crcB and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  const t = shiftTable(lengthB);
  return (
    (t[crcA & 0xff] ^
      t[256 + ((crcA >>> 8) & 0xff)] ^
      t[512 + ((crcA >>> 16) & 0xff)] ^
      t[768 + (crcA >>> 24)] ^
      crcB) >>>
    0
  );
}

// ---------------------------------------------------------------------------------------------------------
// Building the records.

/** The native side of a zlib stream (lib/zlib.js, processChunkSync): what this file and answer-compression.ts call. */
export interface NativeZlib {
  writeSync(
    flush: number,
    input: Uint8Array,
    inputOffset: number,
    inputLength: number,
    output: Uint8Array,
    outputOffset: number,
    outputLength: number,
  ): void;
}

/**
 * One raw-deflate stream for every row of a table: each row written with Z_FULL_FLUSH, which ends its blocks on
 * a byte boundary and forgets everything before it (the row can be put after any bytes). Driven through the
 * native handle: `deflateRawSync` per row would build a stream and its state each time.
 */
class RowDeflater {
  private readonly stream: DeflateRaw;
  private readonly handle: NativeZlib;
  /** The memLevel: the hash table's size (zlib's default, 8; Chromium's zlib, which Node has, takes its own). */
  static readonly MEM_LEVEL = 8;
  /** [output bytes left, input bytes left] after writeSync. */
  private readonly state: Uint32Array;

  constructor() {
    // Made once, at build time: the best compression (a block per row costs about the same at any level).
    const stream = new DeflateRaw({ level: zlib.Z_BEST_COMPRESSION, memLevel: RowDeflater.MEM_LEVEL });
    const internals = stream as unknown as { _handle?: NativeZlib; _writeState?: Uint32Array };
    if (typeof internals._handle?.writeSync !== 'function' || !(internals._writeState instanceof Uint32Array))
      throw new Error('not the zlib internals this was written for');
    this.handle = internals._handle;
    this.state = internals._writeState;
    this.stream = stream;
  }

  /** Frees zlib's state now rather than when the collector finds the stream. */
  close(): void {
    this.stream.close();
  }

  /** input[from…to-1] deflated into output at `at` (flush marker included); the bytes written, -1: no room. */
  into(input: Uint8Array, from: number, to: number, output: Uint8Array, at: number): number {
    this.handle.writeSync(zlib.Z_FULL_FLUSH, input, from, to - from, output, at, output.length - at);
    const [outputLeft, inputLeft] = this.state;
    if (outputLeft === 0 || inputLeft !== 0) return -1;
    return output.length - at - outputLeft;
  }
}

/** Rows read at a time from the documents (their bytes at most this many). */
const READ_BYTES = 4 * 1024 * 1024;
const MARKER = [0x00, 0x00, 0xff, 0xff];

/**
 * The gzip records of every row of `table` (its documents in memory or in a file), written into `writer` (memory
 * or a file: byte-writer.ts). `prefix`: the bytes of every document that go uncompressed, the same in each row.
 */
export function gzipDocuments(table: DocumentTable, prefix: number, writer: ByteWriter): GzipTable {
  const { offsets } = table;
  const count = offsets.length - 1;
  const records = new Uint32Array(count + 1);
  const crcs = new Uint32Array(count);
  const deflater = new RowDeflater();
  const storedLength = 1 + prefix;
  const source: DocumentSource = documentSource(table);
  let chunk = Buffer.allocUnsafe(Math.min(READ_BYTES, Math.max(1, offsets[count])));
  let first: Buffer | undefined;
  try {
    for (let row = 0; row < count;) {
      // As many whole rows as fit in the chunk (at least one).
      let last = row;
      while (last + 1 < count && offsets[last + 2] - offsets[row] <= chunk.length) last++;
      const start = offsets[row];
      if (offsets[last + 1] - start > chunk.length) chunk = Buffer.allocUnsafe(offsets[last + 1] - start);
      source.copy(chunk, 0, start, offsets[last + 1]);
      first ??= Buffer.from(chunk.subarray(0, prefix));
      for (let r = row; r <= last; r++) {
        const from = offsets[r] - start;
        // The document without its comma.
        const to = offsets[r + 1] - start - 1;
        if (to - from < prefix || chunk.compare(first, 0, prefix, from, from + prefix) !== 0)
          throw new Error(`row ${r}'s document does not start as the others do`);
        crcs[r] = crc32(chunk, 0, from + prefix, to);
        // LEN NLEN, the stored part, then the deflated rest (at most a little longer than its input).
        const room = writer.room(4 + storedLength + (to - from) * 2 + 64);
        let at = writer.used;
        room.writeUInt16LE(storedLength, at);
        room.writeUInt16LE(~storedLength & 0xffff, at + 2);
        room[at + 4] = 0x2c; // ,
        chunk.copy(room, at + 5, from, from + prefix);
        at += 4 + storedLength;
        const written = deflater.into(chunk, from + prefix, to, room, at);
        if (written < 4 || MARKER.some((byte, i) => room[at + written - 4 + i] !== byte))
          throw new Error(`row ${r}'s deflated document does not end with the flush marker`);
        writer.used = at + written - 4;
        if (writer.position() > 0xffffffff) throw new Error('the gzip records exceed 4 GiB');
        records[r + 1] = writer.position();
      }
      row = last + 1;
    }
  } finally {
    source.close();
    deflater.close();
  }
  return { bytes: writer.finish(), offsets: records, crcs, prefix };
}

let works: boolean | undefined;

/**
 * Whether this Node's zlib makes records that gunzip back into the page (the deflater drives zlib's internals):
 * checked once, on a sample table. Without it, compressed answers are compressed per request, as before.
 */
export function gzipWorks(): boolean {
  if (works !== undefined) return works;
  try {
    const rows = ['{"a":"é","b":[1,2]}', '{"a":"xx","b":[]}', '{"a":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","b":[]}'];
    const text = Buffer.from(rows.map((row) => `${row},`).join(''));
    const offsets = new Uint32Array(rows.length + 1);
    for (let r = 0, at = 0; r < rows.length; r++) offsets[r + 1] = at += Buffer.byteLength(rows[r]) + 1;
    const table: DocumentTable = { bytes: text, offsets };
    const gzip = gzipDocuments(table, 5, ByteWriter.inMemory(1024));
    const pagination = { pageNumber: 1, pageSize: 3, totalItems: 3, totalPages: 1 };
    const body = gzipPageBody(table, gzip, documentSource(gzip), [2, 0, 1], null, pagination);
    const expected = `{"data":[${rows[2]},${rows[0]},${rows[1]}],"pagination":${JSON.stringify(pagination)}}`;
    works = gunzipSync(body).toString('utf8') === expected;
  } catch {
    works = false;
  }
  return works;
}

// ---------------------------------------------------------------------------------------------------------
// An answer.

/** gzip's header: no name, no time, no extra fields, OS unknown (RFC 1952 §2.3). */
const GZIP_HEADER = [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff];
/** A final fixed-Huffman block holding nothing: what zlib writes at Z_FINISH after a flush. */
const FINAL_EMPTY_BLOCK = [0x03, 0x00];
const OPEN = Buffer.from('{"data":[', 'latin1');

/**
 * The gzip member whose content is byte for byte what pageBody (documents.ts) writes for the same page (rows not
 * empty), from the rows' records. `patch`: written at `at` in every row's document, which must lie in the prefix.
 */
export function gzipPageBody(
  documents: DocumentTable,
  gzip: GzipTable,
  ...[source, rows, patch, pagination, allocate = Buffer.allocUnsafe]: PageParts
): Buffer {
  if (rows.length === 0) throw new Error('gzipPageBody needs at least one row');
  if (patch && patch.at + patch.bytes.length > gzip.prefix) throw new Error('the patch is not in the stored prefix');
  const close = Buffer.from(`],"pagination":${JSON.stringify(pagination)}}`, 'utf8');
  const { offsets } = gzip;
  const stored = 1 + gzip.prefix;
  let length = GZIP_HEADER.length + 1 + 4 + OPEN.length - 5 + 4 + close.length + FINAL_EMPTY_BLOCK.length + 8;
  for (let i = 0; i < rows.length; i++) length += offsets[rows[i] + 1] - offsets[rows[i]];
  const body = allocate(length);
  for (let i = 0; i < GZIP_HEADER.length; i++) body[i] = GZIP_HEADER[i];
  let at = GZIP_HEADER.length;
  // The first stored block: `{"data":[` and the first row's prefix (no comma before it).
  const firstStored = OPEN.length + gzip.prefix;
  body[at] = 0x00;
  body.writeUInt16LE(firstStored, at + 1);
  body.writeUInt16LE(~firstStored & 0xffff, at + 3);
  at += 5;
  OPEN.copy(body, at);
  at += OPEN.length;
  // Where the first row's document starts in the answer.
  let firstDocumentAt = -1;
  for (let i = 0; i < rows.length;) {
    let last = i;
    while (last + 1 < rows.length && rows[last + 1] === rows[last] + 1) last++;
    // The first row's record from its prefix on; the others whole.
    const from = offsets[rows[i]] + (i === 0 ? 5 : 0);
    source.copy(body, at, from, offsets[rows[last] + 1]);
    if (i === 0) firstDocumentAt = at;
    if (patch) {
      for (let k = i; k <= last; k++) {
        // Each row's document starts 5 bytes into its record (the first row's record is copied from there).
        const place = at + offsets[rows[k]] - from + 5 + patch.at;
        for (let c = 0; c < patch.bytes.length; c++) body[place + c] = patch.bytes[c];
      }
    }
    at += offsets[rows[last] + 1] - from;
    i = last + 1;
  }
  // The comma and prefix as every row after the first has them: the first row's prefix (patched), a comma before.
  const commaPrefix = Buffer.allocUnsafe(stored);
  commaPrefix[0] = 0x2c;
  body.copy(commaPrefix, 1, firstDocumentAt, firstDocumentAt + gzip.prefix);
  const prefixCrc = crc32(commaPrefix);
  // The CRC of the content, part by part, and its length.
  let crc = crc32(commaPrefix, crc32(OPEN), 1);
  let size = OPEN.length + gzip.prefix;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (i > 0) {
      crc = crc32Combine(crc, prefixCrc, stored);
      size += stored;
    }
    const rest = documents.offsets[row + 1] - documents.offsets[row] - 1 - gzip.prefix;
    crc = crc32Combine(crc, gzip.crcs[row], rest);
    size += rest;
  }
  crc = crc32(close, crc);
  size += close.length;
  // The last stored block: `],"pagination":{…}}`, then the final block and the trailer.
  body.writeUInt16LE(close.length, at);
  body.writeUInt16LE(~close.length & 0xffff, at + 2);
  at += 4;
  at += close.copy(body, at);
  for (const byte of FINAL_EMPTY_BLOCK) body[at++] = byte;
  body.writeUInt32LE(crc, at);
  body.writeUInt32LE(size >>> 0, at + 4);
  return body;
}
