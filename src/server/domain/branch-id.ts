import { createHash } from 'node:crypto';
import { branchKey, type BranchKeyFields } from './natural-keys';

// The branch id the API gives (`branchId`): the React key of the portal's rows, the deep link of a branch's
// detail (GET /v1/banks/branches/{branchId}) and a column of exports. Made from the natural key
// (natural-keys.ts), so a branch keeps its id across re-imports and data versions:
//
// - a branch with a routing number: country + routing number, as people read it (`IN-SBIN0000300`);
// - otherwise (Nigeria): country + the first 13 characters of the base32 SHA-256 of the natural key (bank code,
//   branch name, address line 1), in lower case (`NG-k3q…`): URL-safe, never mistaken for a routing number.
//
// Two rows with the same id (the same natural key twice, or a 65-bit hash collision: never seen) are told apart
// deterministically: in answer order (country, bank name, branch name, file order) the first keeps the id, the
// next ones get `-2`, `-3`, …

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const HASH_CHARACTERS = 13;

function base32(bytes: Uint8Array, characters: number): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < characters) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === characters) break;
  }
  return out;
}

/** The id of one branch row before collisions are told apart (see `uniqueBranchIds`). */
export function branchBaseId(row: BranchKeyFields): string {
  if (row.routingNumber) return `${row.country}-${row.routingNumber}`;
  const digest = createHash('sha256').update(branchKey(row)).digest();
  return `${row.country}-${base32(digest, HASH_CHARACTERS)}`;
}

/** The ids of rows given in answer order: repeated base ids get `-2`, `-3`, … in that order. */
export function uniqueBranchIds(baseIds: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(baseIds);
  return baseIds.map((id) => {
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    if (count === 1) return id;
    // A suffixed id that is some other row's base id (never with these formats) takes the next number.
    let n = count;
    while (taken.has(`${id}-${n}`)) n++;
    seen.set(id, n);
    taken.add(`${id}-${n}`);
    return `${id}-${n}`;
  });
}
