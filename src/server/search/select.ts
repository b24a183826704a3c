// The rows of ranks from…to-1 (in ascending order) of n gathered matches, without sorting all n when the page is
// a small part of them: two quickselect partitions bound the page, then only the page is sorted.

/**
 * Below this many matches they are sorted whole. Above, two partitions and a sort of the page: at 2,048 the bench's
 * typical searches (a place word in 100–2,000 rows of a bank, pages of 50) spent ~10 % of their search sorting.
 */
const SORT_ALL_BELOW = 128;

export function pageOfRanks(values: Int32Array, n: number, from: number, to: number, alreadySorted: boolean): number[] {
  to = Math.min(to, n);
  if (from >= to) return [];
  if (alreadySorted) return Array.from(values.subarray(from, to));
  if (n <= SORT_ALL_BELOW) return Array.from(values.subarray(0, n).sort().subarray(from, to));
  if (from > 0) nthElement(values, 0, n, from);
  if (to < n) nthElement(values, from, n, to);
  return Array.from(values.subarray(from, to).sort());
}

/**
 * Reorders values[lo…hi-1] so that values[k] is what it would be sorted, everything before it smaller or
 * equal and everything after it greater or equal (Hoare's selection, median-of-three pivots).
 */
export function nthElement(values: Int32Array, lo: number, hi: number, k: number): void {
  let left = lo;
  let right = hi - 1;
  while (right > left) {
    const mid = (left + right) >>> 1;
    // Median of three as the pivot.
    const a = values[left];
    const b = values[mid];
    const c = values[right];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}
