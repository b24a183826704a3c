import { stringify } from 'csv-stringify/sync';
import { toCsvCell } from '../../contract/csv-cell';
import type { ChangeKind, GroupCounts } from '../../contract/ops-changes';
import { RELEASE_NOTE_COLUMNS } from '../../contract/ops-versions';
import { ProblemError } from '../problems';
import type { DeskDb } from './db';
import { keptVersion } from './version-files';

// A version's release note, as CSV (as a bank's reference-data team is sent with a directory release): the
// counts of records added, removed and changed in all, per country and per bank, then each record added,
// removed or changed by its code and name. From the difference its change was published with (desk_diff), which
// a comparison of the version with the one before it gives again.

type Fields = Record<string, string | null>;

/** A record's code in the note: its natural key without the country a branch's key starts with. */
const codeOf = (kind: ChangeKind, key: string[]) => (kind === 'branches' ? key.slice(1) : key).join(' / ');
const nameOf = (fields: Fields | null) => fields?.branchName ?? fields?.agentName ?? fields?.name ?? '';

const ENTRY_CHUNK = 5000;

export async function releaseNoteOf(db: DeskDb, id: number): Promise<{ fileName: string; csv: string }> {
  const version = await keptVersion(db, id);
  if (version.changeId === null)
    throw new ProblemError(
      'notFound',
      `Version ${id} is the baseline (the data served before the desk's first change): it changed nothing; download its data.csv.`,
    );
  const [change] = await db.all('SELECT by_bank, summary FROM desk_changes WHERE id = ?', [version.changeId]);
  const byBank = JSON.parse(String(change?.by_bank ?? '[]')) as GroupCounts[];
  const byCountry =
    (JSON.parse(String(change?.summary ?? 'null')) as { byCountry: GroupCounts[] } | null)?.byCountry ?? [];
  const cell = (value: string | number | null | undefined) =>
    toCsvCell(value === null || value === undefined ? '' : String(value));
  const line = (values: Partial<Record<(typeof RELEASE_NOTE_COLUMNS)[number], string | number | null>>) =>
    stringify([RELEASE_NOTE_COLUMNS.map((column) => cell(values[column]))]);
  const counted = (kind: string, g: Pick<GroupCounts, 'added' | 'removed' | 'changed'> & Partial<GroupCounts>) =>
    line({
      line: kind,
      country: g.country,
      bank_code: g.bankCode,
      added: g.added,
      removed: g.removed,
      changed: g.changed,
    });
  const total = { added: 0, removed: 0, changed: 0 };
  for (const g of byCountry) for (const op of ['added', 'removed', 'changed'] as const) total[op] += g[op];
  const lines = [
    stringify([[...RELEASE_NOTE_COLUMNS]]),
    counted('total', total),
    ...byCountry.map((g) => counted('country', g)),
    ...(version.kind === 'partners' ? [] : byBank.map((g) => counted('bank', g))),
  ];
  // The records by country, bank and operation (the index desk_diff_country pages them in that order).
  for (let from = 0; ; from += ENTRY_CHUNK) {
    const rows = await db.all(
      `SELECT op, country, bank_code, key_parts, before_fields, after_fields FROM desk_diff WHERE change_id = ?
       ORDER BY country, bank_code, op, seq LIMIT ? OFFSET ?`,
      [version.changeId, ENTRY_CHUNK, from],
    );
    for (const r of rows) {
      const fields = JSON.parse(String(r.after_fields ?? r.before_fields ?? 'null')) as Fields | null;
      const key = JSON.parse(String(r.key_parts)) as string[];
      lines.push(
        line({
          line: 'record',
          country: r.country as string,
          bank_code: (r.bank_code as string | null) ?? null,
          op: r.op as string,
          code: codeOf(version.kind, key),
          name: nameOf(fields),
        }),
      );
    }
    if (rows.length < ENTRY_CHUNK) break;
  }
  return { fileName: `version-${id}-${version.kind}-release-note.csv`, csv: lines.join('') };
}
