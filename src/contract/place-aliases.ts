import { COUNTRY_PROFILES } from './countries';

// Places known under two names (the country profiles' `placeAliases`, countries.ts: the 2018 official spellings
// of Bangladesh and the older ones still found in branch names, the state catalog and tellers' habits). Used by
// the server's search index (the branch filters accept either name) and by the portal (lists and hints show
// both). The first name of each entry is the one the served data uses in `district` and Address Line 2.

export const PLACE_ALIASES: Readonly<Record<string, readonly (readonly string[])[]>> = Object.fromEntries(
  Object.entries(COUNTRY_PROFILES).flatMap(([country, p]) => (p.placeAliases ? [[country, p.placeAliases]] : [])),
);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The other names of a place of the country ([] when it has none). */
export function otherPlaceNames(receivingCountry: string, name: string): string[] {
  const entry = (PLACE_ALIASES[receivingCountry] ?? []).find((names) =>
    names.some((n) => n.toLowerCase() === name.trim().toLowerCase()),
  );
  return entry ? entry.filter((n) => n.toLowerCase() !== name.trim().toLowerCase()) : [];
}

/** A label naming a place under all its names: "Chittagong Division (Chattogram)". */
export function withPlaceAliases(receivingCountry: string, label: string): string {
  const also = new Set<string>();
  for (const names of PLACE_ALIASES[receivingCountry] ?? []) {
    const present = names.find((n) => new RegExp(`\\b${escape(n)}\\b`, 'i').test(label));
    if (present)
      for (const n of names) if (n !== present && !new RegExp(`\\b${escape(n)}\\b`, 'i').test(label)) also.add(n);
  }
  return also.size ? `${label} (${[...also].join(', ')})` : label;
}

/**
 * The text under every spelling of the places it names (whole words, any case): itself first, then with each
 * place's other names. A contains filter matches a row holding any of them, so a teller finds Chattogram's
 * branches typing either name, whichever the data uses in that column.
 */
export function placeNameVariants(receivingCountry: string, text: string): string[] {
  let variants = [text];
  for (const names of PLACE_ALIASES[receivingCountry] ?? []) {
    const next: string[] = [];
    for (const variant of variants) {
      next.push(variant);
      const present = names.find((n) => new RegExp(`\\b${escape(n)}\\b`, 'i').test(variant));
      if (!present) continue;
      for (const other of names)
        if (other !== present) next.push(variant.replace(new RegExp(`\\b${escape(present)}\\b`, 'gi'), other));
    }
    variants = next;
  }
  return [...new Set(variants)];
}
