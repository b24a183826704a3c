// A published record's key in a URL (ops-records.ts, `recordKey`), built the same way by the server's answers
// and by the portal's links to a record page. Apart from the schemas: a teller screen links to the desk without
// loading zod.

/** A record's key from its natural key's parts: each part percent-encoded, `~` too, joined with `~`. */
export const recordKeyOf = (parts: readonly string[]): string =>
  parts.map((part) => encodeURIComponent(part).replace(/~/g, '%7E')).join('~');

/** A URL key's parts, or null when a part is not well-formed percent-encoding (the inverse of recordKeyOf). */
export function parseRecordKey(key: string): string[] | null {
  try {
    return key.split('~').map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}
