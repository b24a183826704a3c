import { closeSync, openSync, rmSync, writeSync } from 'node:fs';

/** A table's bytes kept in a file: `byteLength` bytes from position `at` of `file` (an index snapshot). */
export interface FileBytes {
  file: string;
  at: number;
  byteLength: number;
}

/**
 * Bytes written one piece after another, into memory or into a file, for the index's answer documents and their
 * gzip records (documents.ts, gzip-documents.ts). A writer asks `room(n)` for a buffer with `n` bytes free from
 * `used` on, writes there and moves `used`; `finish()` gives the bytes: in memory, a SharedArrayBuffer of the
 * exact size (the serving threads answer from the same bytes), or where they are in the file. A file's writer
 * holds a few MB, never all of it: at a million rows a build held ~0.9 GB at its peak before.
 */
export class ByteWriter {
  /** Bytes of `buffer` in use. */
  used = 0;
  /** Bytes already written to the file before `buffer`'s. */
  private flushed = 0;
  private fd: number | undefined;

  private constructor(
    private buffer: Buffer,
    private readonly file?: string,
  ) {
    if (file) this.fd = openSync(file, 'w');
  }

  /** A writer into memory, starting with `bytes` (it grows as needed). */
  static inMemory(bytes: number): ByteWriter {
    return new ByteWriter(Buffer.allocUnsafe(Math.max(1024, bytes)));
  }

  /** A writer into the file `path` (created or emptied), through a buffer of `bufferBytes`. */
  static toFile(path: string, bufferBytes = 4 * 1024 * 1024): ByteWriter {
    return new ByteWriter(Buffer.allocUnsafe(bufferBytes), path);
  }

  /** The position `used` stands for: bytes written in all. */
  position(): number {
    return this.flushed + this.used;
  }

  /** A buffer with `need` bytes free from `used` on (a file's: its bytes so far written out, `used` back to 0). */
  room(need: number): Buffer {
    if (this.used + need <= this.buffer.length) return this.buffer;
    if (this.fd === undefined) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.used + need));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
      return grown;
    }
    this.flush();
    if (need > this.buffer.length) throw new Error('one piece is larger than the write buffer');
    return this.buffer;
  }

  private flush(): void {
    for (let done = 0; done < this.used;)
      done += writeSync(this.fd!, this.buffer, done, this.used - done, this.flushed + done);
    this.flushed += this.used;
    this.used = 0;
  }

  /** The bytes written: shared memory of their size, or where they are in the file (closed). */
  finish(): Uint8Array | FileBytes {
    if (this.fd === undefined) {
      const bytes = new Uint8Array(new SharedArrayBuffer(this.used));
      bytes.set(this.buffer.subarray(0, this.used));
      return bytes;
    }
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
    return { file: this.file!, at: 0, byteLength: this.flushed };
  }

  /** Gives up: a file's writer closes and removes its file. */
  abort(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.file!, { force: true });
  }
}

/** `write(writer)`'s answer, the writer finished; on an error, the writer given up (its file removed). */
export function writeAll<T>(writer: ByteWriter, write: (writer: ByteWriter) => T): T {
  try {
    return write(writer);
  } catch (error) {
    writer.abort();
    throw error;
  }
}
