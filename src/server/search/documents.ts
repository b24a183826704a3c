// The answer records of one data set, each already written as JSON (UTF-8), built with the index. A page of a
// search is then its rows' bytes copied one after another into one buffer: no objects per record, no
// JSON.stringify and no UTF-8 encoding per request. At 1,000 rows a page (~390 kB) those were ~4 of the ~5 ms
// a request cost (docs/search-index.md, "Answer documents"); they still cost the same once per row here, when
// the index is built.
//
// A branch's record starts with the head office it is asked under (spec §4.3), the one field that is not the
// row's own: its document is the record written with an empty head office, that prefix cut off, and each
// answer writes the asked head office back in front of it.

/** Every row's document: bytes[offsets[row]…offsets[row+1]-1]. */
export interface DocumentTable {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** Writes each row's JSON text, as `render` gives it, into one buffer of the exact size. */
export function encodeDocuments(count: number, render: (row: number) => string): DocumentTable {
  const offsets = new Uint32Array(count + 1);
  let buffer = Buffer.allocUnsafe(Math.max(1024, count * 256));
  let used = 0;
  for (let row = 0; row < count; row++) {
    const text = render(row);
    // A UTF-16 unit is at most 3 bytes of UTF-8; grow before writing rather than measuring every text twice.
    if (used + text.length * 3 > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, used + text.length * 3));
      buffer.copy(grown, 0, 0, used);
      buffer = grown;
    }
    used += buffer.write(text, used, 'utf8');
    if (used > 0xffffffff) throw new Error('the answer documents exceed 4 GiB');
    offsets[row + 1] = used;
  }
  const bytes = new Uint8Array(used);
  bytes.set(buffer.subarray(0, used));
  return { bytes, offsets };
}

/**
 * Writes a page answer `{"data":[…],"pagination":{…}}` (the shape of `pageOf`, keys in the same order) from the
 * documents of `rows`, each preceded by `head` (the part of the record the document leaves out, or nothing).
 */
export function pageBody(
  table: DocumentTable,
  source: Buffer,
  rows: ArrayLike<number>,
  head: string,
  pagination: { pageNumber: number; pageSize: number; totalItems: number; totalPages: number },
): Buffer {
  const open = '{"data":[';
  const close = `],"pagination":${JSON.stringify(pagination)}}`;
  const headBytes = Buffer.from(head, 'utf8');
  const { offsets } = table;
  let length = open.length + Buffer.byteLength(close) + Math.max(0, rows.length - 1) + rows.length * headBytes.length;
  for (let i = 0; i < rows.length; i++) length += offsets[rows[i] + 1] - offsets[rows[i]];
  const body = Buffer.allocUnsafe(length);
  let at = body.write(open, 0, 'latin1');
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) body[at++] = 0x2c; // ,
    at += headBytes.copy(body, at);
    at += source.copy(body, at, offsets[rows[i]], offsets[rows[i] + 1]);
  }
  body.write(close, at, 'utf8');
  return body;
}

/** A Buffer over the table's bytes without copying them (for Buffer#copy). */
export const documentSource = (table: DocumentTable) => Buffer.from(table.bytes.buffer, table.bytes.byteOffset, table.bytes.byteLength);
