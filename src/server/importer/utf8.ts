import { isUtf8 } from 'node:buffer';
import type { FileProblem } from './file-problem';

// Import files are UTF-8. A byte sequence that is not UTF-8 (a file saved as Windows-1252 or Latin-1) is never
// decoded into U+FFFD and imported: the file is refused with the row and the column that hold it, so the
// operator saves it again as UTF-8. The text is decoded once; only a file that fails the check is decoded a
// second time, sequence by sequence, with each bad sequence marked (INVALID) so the reader can say where it is.

/** Stands for an invalid byte sequence in the decoded text of a file that is not UTF-8 (a noncharacter). */
export const INVALID = '\uFFFE';

export interface DecodedText {
  text: string;
  /** The file is not UTF-8: its text holds INVALID where each bad sequence was. */
  invalid: boolean;
}

/** Length of the UTF-8 sequence starting at `at` when it is valid, else 0. */
function validSequence(bytes: Uint8Array, at: number): number {
  const b = bytes[at];
  if (b < 0x80) return 1;
  const cont = (i: number) => at + i < bytes.length && (bytes[at + i] & 0xc0) === 0x80;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const b1 = bytes[at + 1];
    if (b === 0xe0 && b1 < 0xa0) return 0; // overlong
    if (b === 0xed && b1 > 0x9f) return 0; // a surrogate
    return cont(1) && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const b1 = bytes[at + 1];
    if (b === 0xf0 && b1 < 0x90) return 0;
    if (b === 0xf4 && b1 > 0x8f) return 0;
    return cont(1) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** The file's text (a leading byte-order mark dropped), with INVALID marking each byte that is not UTF-8. */
export function decodeImportText(bytes: Uint8Array): DecodedText {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) return { text: buffer.toString('utf8').replace(/^\uFEFF/, ''), invalid: false };
  const parts: string[] = [];
  let start = 0;
  let at = 0;
  while (at < buffer.length) {
    const length = validSequence(buffer, at);
    if (length > 0) {
      at += length;
      continue;
    }
    parts.push(buffer.toString('utf8', start, at), INVALID);
    start = at = at + 1;
  }
  parts.push(buffer.toString('utf8', start));
  return { text: parts.join('').replace(/^\uFEFF/, ''), invalid: true };
}

/** The problem of a cell holding a byte sequence that is not UTF-8 (the file is refused). */
export function invalidUtf8Problem(line: number | null, column: string | null, cell: string): FileProblem {
  return {
    line,
    column,
    value: cell.replaceAll(INVALID, '\uFFFD'),
    reason:
      'holds a byte sequence that is not UTF-8 (shown as \uFFFD): the file is refused; save it as UTF-8 and import it again',
    rule: 'file.encoding',
  };
}

/** The first line of the text holding INVALID (1-based), for a bad sequence outside any cell read. */
export function lineOfInvalid(text: string): number {
  return text.slice(0, text.indexOf(INVALID)).split('\n').length;
}

/** Problems of the cells (by column) that hold INVALID: one per cell. */
export function invalidCells(line: number, cells: Record<string, string>): FileProblem[] {
  const problems: FileProblem[] = [];
  for (const [column, cell] of Object.entries(cells))
    if (cell.includes(INVALID)) problems.push(invalidUtf8Problem(line, column, cell));
  return problems;
}
