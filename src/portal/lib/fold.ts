/** Text folded for a lenient comparison: lower case, accents removed ("Tequesquitlán" → "tequesquitlan"). */
export const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The names that a search typed without the right case or accents meant (issue #25: the API's matching stays
 * case-sensitive, as the spec says): those whose folded form contains the folded search, or is contained in it,
 * but differ from what was typed. Closest first (the shortest), at most `limit`.
 */
export function nearestNames(search: string, names: Iterable<string>, limit = 3): string[] {
  const wanted = fold(search.trim());
  if (wanted.length < 3) return [];
  const found = new Set<string>();
  for (const name of names) {
    const folded = fold(name);
    if (name !== search.trim() && (folded.includes(wanted) || (folded.length >= 4 && wanted.includes(folded))))
      found.add(name);
  }
  return [...found].sort((a, b) => a.length - b.length || a.localeCompare(b)).slice(0, limit);
}

/** The search with `name` applied: the name itself, or the part of the search that folds to it replaced by it. */
export function applyName(search: string, name: string): string {
  const folded = fold(name);
  for (let start = 0; start < search.length; start++)
    for (let end = start + 1; end <= search.length; end++)
      if (fold(search.slice(start, end)) === folded) return `${search.slice(0, start)}${name}${search.slice(end)}`;
  return name;
}
