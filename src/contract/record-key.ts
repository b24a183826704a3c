// A published record's key in a URL (ops-records.ts, `recordKey`), built the same way by the server's answers
// and by the portal's links to a record page. Apart from the schemas: a teller screen links to the desk without
// loading zod.

/** A record's key from its natural key's parts: each part percent-encoded, `~` too, joined with `~`. */
export const recordKeyOf = (parts: readonly string[]): string =>
  parts.map((part) => encodeURIComponent(part).replace(/~/g, '%7E')).join('~');
