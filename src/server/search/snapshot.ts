import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import type { SearchIndexData } from './index-data';
import type { FileBytes } from './byte-writer';
import { readInPieces } from './documents';

// The index snapshot: the search index a worker built, written once into a file beside the data it
// was built from (DATA_DIR/search-index), and read back at the next start instead of scanning the store and
// building again — when the data version and the code that built it are the same. A file per index: a small
// JSON header with the structure, every typed array and long string as raw bytes after it, read straight into
// their own buffers (no second copy of the ~0.8 GB of a million-row index, as v8.deserialize would hold).
// Anything off (another version, another build of the code, a short or corrupt file) and the index is built
// from the store as before; the snapshot is only ever a shortcut.

const FORMAT = 4;
const PREFIX = 'search-index-';
/** Strings longer than this go to the raw part (the string tables' texts: tens of MB each). */
const LONG_STRING = 64 * 1024;
const STALE_TEMPORARY_MS = 30 * 60_000;

const VIEWS = { Int32Array, Uint32Array, Uint8Array, Int16Array, Uint16Array, Float64Array } as const;
type ViewName = keyof typeof VIEWS;
/** `document`: the bytes of an answer-document table (readSnapshot may leave them in the file). */
type Blob =
  { $view: ViewName; at: number; bytes: number; document?: true } | { $string: true; at: number; bytes: number };

interface Header {
  format: number;
  code: string;
  version: string;
  data: unknown;
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** What holds bytes the answers read (a document table, its gzip records): they may stay in the file. */
export type DocumentBytesHolder = { bytes: Uint8Array | FileBytes };

let codeFingerprint: string | undefined;

/**
 * What built the index: the worker's own bundle in the compiled build (dist/server/index-worker.js holds every
 * line the index is made with), or every server and contract source file when run from source.
 */
export function codeVersion(): string {
  if (codeFingerprint) return codeFingerprint;
  const hash = createHash('sha256');
  const bundle = fileURLToPath(new URL('./index-worker.js', import.meta.url));
  if (existsSync(bundle)) hash.update(readFileSync(bundle));
  else {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    for (const dir of ['server', 'contract']) {
      const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts') && !f.includes('__tests__'))
        .sort();
      for (const file of files) hash.update(file).update(readFileSync(join(root, dir, file)));
    }
  }
  codeFingerprint = hash.digest('hex').slice(0, 16);
  return codeFingerprint;
}

const fileOf = (dir: string, version: string) =>
  join(dir, `${PREFIX}${codeVersion()}-${createHash('sha256').update(version).digest('hex').slice(0, 16)}.bin`);

/**
 * Writes the index of `data.version` into `dir` (a temporary file renamed into place, so a reader never sees
 * half of one), and removes the snapshots of other versions or code there. Returns the file, its size and where
 * in it the answer documents' bytes and their gzip records are, by what holds them (the index can then serve them
 * from the file: documents.ts).
 */
export function writeSnapshot(
  dir: string,
  data: SearchIndexData,
): { file: string; bytes: number; documents: Map<DocumentBytesHolder, FileBytes> } {
  mkdirSync(dir, { recursive: true });
  // The answer documents' bytes and their gzip records' (gzip-documents.ts), by their value, with what holds them.
  const documentBytes = new Map<unknown, DocumentBytesHolder>();
  for (const table of Object.values(data.documents ?? {}))
    for (const holder of [table, table.gzip]) if (holder) documentBytes.set(holder.bytes, holder);
  const documents = new Map<DocumentBytesHolder, FileBytes>();
  // A blob's bytes: in memory, or (answer documents written straight to a file: documents.ts) in another file.
  const blobs: { value: ArrayBufferView | FileBytes; at: number }[] = [];
  let at = 0;
  const place = (value: ArrayBufferView | FileBytes) => {
    blobs.push({ value, at });
    const placed = at;
    at += align8(value.byteLength);
    return placed;
  };
  const structure = JSON.stringify(data, (_key, value: unknown) => {
    const holder = documentBytes.get(value);
    if (holder) {
      const bytes = value as Uint8Array | FileBytes;
      const blob: Blob = { $view: 'Uint8Array', at: place(bytes), bytes: bytes.byteLength, document: true };
      documents.set(holder, { file: '', at: blob.at, byteLength: bytes.byteLength });
      return blob;
    }
    if (ArrayBuffer.isView(value)) {
      const name = value.constructor.name as ViewName;
      if (!(name in VIEWS)) throw new Error(`the index snapshot cannot hold a ${name}`);
      return { $view: name, at: place(value), bytes: value.byteLength } satisfies Blob;
    }
    if (typeof value === 'string' && value.length > LONG_STRING) {
      const bytes = Buffer.from(value, 'utf8');
      return { $string: true, at: place(bytes), bytes: bytes.byteLength } satisfies Blob;
    }
    return value;
  });
  // The header's length (8 bytes), the header, then the raw part from the next multiple of 8.
  const header = Buffer.from(
    `{"format":${FORMAT},"code":${JSON.stringify(codeVersion())},"version":${JSON.stringify(data.version)},"data":${structure}}`,
  );
  const base = align8(8 + header.byteLength);
  const file = fileOf(dir, data.version);
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(header.byteLength));
    writeSync(fd, length, 0, 8, 0);
    writeSync(fd, header, 0, header.byteLength, 8);
    for (const blob of blobs) {
      if (!ArrayBuffer.isView(blob.value)) {
        copyFromFile(blob.value, fd, base + blob.at);
        continue;
      }
      const bytes = new Uint8Array(blob.value.buffer, blob.value.byteOffset, blob.value.byteLength);
      for (let done = 0; done < bytes.byteLength;)
        done += writeSync(fd, bytes, done, bytes.byteLength - done, base + blob.at + done);
    }
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, file);
  // Another process's write under way (on the same DATA_DIR) is left alone; one a crash left behind goes after a
  // while.
  for (const other of readdirSync(dir)) {
    const path = join(dir, other);
    if (!other.startsWith(PREFIX) || path === file) continue;
    if (other.endsWith('.tmp') && Date.now() - statSync(path).mtimeMs < STALE_TEMPORARY_MS) continue;
    rmSync(path, { force: true });
  }
  for (const bytes of documents.values()) Object.assign(bytes, { file, at: base + bytes.at });
  const last = blobs.at(-1);
  return { file, bytes: last ? base + last.at + last.value.byteLength : 8 + header.byteLength, documents };
}

/** Copies bytes that are in another file into `fd` at `position`, a few MB at a time. */
function copyFromFile(from: FileBytes, fd: number, position: number): void {
  readInPieces(from, (chunk, length, offset) => {
    for (let written = 0; written < length;)
      written += writeSync(fd, chunk, written, length - written, position + offset + written);
  });
}

/**
 * A file to write answer documents into while an index is built (encodeDocumentsToFile), until its snapshot
 * holds them: named like a temporary file, so another process's snapshot does not remove it meanwhile.
 */
export function documentsScratchFile(dir: string, table: string): string {
  mkdirSync(dir, { recursive: true });
  return join(dir, `${PREFIX}documents-${table}-${process.pid}-${threadId}-${Date.now()}.tmp`);
}

/**
 * The index of data version `version` as a snapshot in `dir` holds it, built by this code; undefined when there
 * is none. Throws on a file that is there but cannot be read whole (the caller builds from the store instead).
 * `documentsInFile`: the answer documents' bytes are not read but named where they are in the file (FileBytes).
 */
export function readSnapshot(
  dir: string,
  version: string,
  { documentsInFile = false }: { documentsInFile?: boolean } = {},
): SearchIndexData | undefined {
  const file = fileOf(dir, version);
  if (!existsSync(file)) return undefined;
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    const readExactly = (into: Uint8Array, position: number) => {
      if (position + into.byteLength > size) throw new Error(`index snapshot ${file} is shorter than it says`);
      for (let done = 0; done < into.byteLength;) {
        const n = readSync(fd, into, done, into.byteLength - done, position + done);
        if (n === 0) throw new Error(`index snapshot ${file} ended early`);
        done += n;
      }
    };
    const length = Buffer.alloc(8);
    readExactly(length, 0);
    const headerBytes = Buffer.alloc(Number(length.readBigUInt64LE()));
    readExactly(headerBytes, 8);
    const base = align8(8 + headerBytes.byteLength);
    const header = JSON.parse(headerBytes.toString('utf8'), (_key, value: unknown) => {
      const blob = value as Blob | null;
      if (!blob || typeof blob !== 'object' || typeof blob.at !== 'number') return value;
      if ('$view' in blob) {
        if (blob.document && documentsInFile) {
          if (base + blob.at + blob.bytes > size) throw new Error(`index snapshot ${file} is shorter than it says`);
          return { file, at: base + blob.at, byteLength: blob.bytes } satisfies FileBytes;
        }
        // Shared: the serving threads answer from the same bytes (strings.ts).
        const View = VIEWS[blob.$view];
        const view = new View(new SharedArrayBuffer(blob.bytes) as unknown as ArrayBuffer);
        readExactly(new Uint8Array(view.buffer), base + blob.at);
        return view;
      }
      if ('$string' in blob) {
        const bytes = Buffer.allocUnsafe(blob.bytes);
        readExactly(bytes, base + blob.at);
        return bytes.toString('utf8');
      }
      return value;
    }) as Header;
    if (header.format !== FORMAT || header.code !== codeVersion() || header.version !== version) return undefined;
    return header.data as SearchIndexData;
  } finally {
    closeSync(fd);
  }
}
