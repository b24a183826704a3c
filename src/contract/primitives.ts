import { z } from 'zod';

// Query-string primitives. Query values arrive as strings (or arrays when a key is repeated); every
// primitive below accepts exactly one non-empty string and turns it into the typed value, so the server,
// the portal's forms and the OpenAPI document all read the same rules.

/** Longest accepted free-text search value ("free-text parameters over 100 characters → 400"). */
export const MAX_TEXT_LENGTH = 100;
export const MAX_INT32 = 2_147_483_647;

/**
 * A query value that must appear once and must not be empty. Repeated keys arrive as arrays from the
 * query-string parser; they are rejected with a message that says so rather than "expected string".
 */
export function queryString(description: string) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : Array.isArray(issue.input)
            ? 'must be given once, not repeated'
            : 'must be a single text value',
    })
    .min(1, 'must not be empty; leave the parameter out instead')
    .meta({ description });
}

// No control characters, C0 (TAB and LF included), DEL or C1 (U+0080–U+009F): they are never part of a name
// or address, and PostgreSQL rejects NUL in text. The one rule for searches (here) and import files
// (importer/row-schemas.ts).
const CONTROL_RANGE = '\\u0000-\\u001f\\u007f-\\u009f';
export const CONTROL_CHARACTERS = new RegExp(`[${CONTROL_RANGE}]`);
/** The same rule as a whole-value pattern (zod's built-in regex check is cheaper than a refine). */
export const WITHOUT_CONTROL_CHARACTERS = new RegExp(`^[^${CONTROL_RANGE}]*$`);

/** Free text matched with a contains operation: 1–100 characters, wildcards taken literally. */
export function freeText(description: string) {
  // Characters as the document's maxLength counts them (code points: an emoji is one, not two UTF-16 units),
  // counted only when the cheap count is over; and a pattern rather than a refine for the control characters, so
  // the document refuses what the server refuses.
  return queryString(description)
    .refine(
      (value) => value.length <= MAX_TEXT_LENGTH || [...value].length <= MAX_TEXT_LENGTH,
      `must be at most ${MAX_TEXT_LENGTH} characters`,
    )
    .regex(WITHOUT_CONTROL_CHARACTERS, 'must not contain control characters')
    .meta({ description, maxLength: MAX_TEXT_LENGTH });
}

/**
 * A whole number written with digits only: no sign, decimal point, exponent, spaces or hex.
 * Leading zeros are allowed so that delivery mode "04" and "4" are the same value.
 */
export function digitsInteger(description: string, min: number, max: number) {
  return queryString(description)
    .regex(/^[0-9]+$/, 'must be a whole number written with digits only (no sign, decimals or exponent)')
    .transform((text, ctx) => {
      const significant = text.replace(/^0+(?=\d)/, '');
      const value = significant.length > 10 ? Number.POSITIVE_INFINITY : Number(significant);
      if (value < min || value > max) {
        ctx.addIssue({ code: 'custom', message: `must be between ${min} and ${max}` });
        return z.NEVER;
      }
      return value;
    })
    .meta({
      description,
      override: {
        type: 'integer',
        format: 'int32',
        minimum: min,
        maximum: max,
        pattern: undefined,
        minLength: undefined,
      },
    });
}
