import type { DiffEntry } from '../../contract/ops-changes';
import type { Row } from './db';
import { recordKeyOf } from '../../contract/record-key';

// A difference entry read back from desk_diff, with the key of its record's page, and the difference's search:
// `q` found in the entry's search text (code-changes.ts, searchTextOf), any case, anywhere in it.

const json = <T>(value: unknown): T | null => (typeof value === 'string' && value ? (JSON.parse(value) as T) : null);

/** desk_diff's columns an entry is read from. */
export const DIFF_ENTRY_COLUMNS =
  'seq, op, country, bank_code, key_parts, before_fields, after_fields, changed_fields, previous_key';

export function diffEntryOfRow(r: Row): DiffEntry {
  const key = JSON.parse(String(r.key_parts)) as string[];
  const previousKey = json<string[]>(r.previous_key);
  return {
    op: r.op as DiffEntry['op'],
    key,
    country: String(r.country),
    bankCode: (r.bank_code as string | null) ?? null,
    before: json<Record<string, string | null>>(r.before_fields),
    after: json<Record<string, string | null>>(r.after_fields),
    changedFields: String(r.changed_fields).split(' ').filter(Boolean),
    ...(previousKey ? { previousKey } : {}),
    recordKey: recordKeyOf(key),
  };
}

/** The search's condition on desk_diff and its parameter (LIKE's wildcards in `q` taken as themselves). */
export const diffSearch = (q: string) => ({
  sql: `search_text LIKE ? ESCAPE '!'`,
  param: `%${q.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`,
});
