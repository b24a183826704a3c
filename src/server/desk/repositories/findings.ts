import type {
  DiffEntry,
  DiffQuery,
  GroupCounts,
  OpsPage,
  ProblemsQuery,
  ValidationProblem,
} from '../../../contract/ops-changes';
import type { DeskDb, Row } from '../db';
import { DIFF_COLUMNS, type DiffRow } from '../diff';
import { DIFF_ENTRY_COLUMNS, diffEntryOfRow, diffSearch } from '../diff-rows';
import type { StagedChange } from '../prepare';
import { Where, page, pageOf, problemOf } from './rows';

// What a staging found in a change's file: its validation problems (desk_problems) and its difference's entries
// (desk_diff), kept in their order (seq) and read back a page at a time.

export class FindingsRepository {
  constructor(private readonly db: DeskDb) {}

  async dropProblems(id: string): Promise<void> {
    await this.db.run('DELETE FROM desk_problems WHERE change_id = ?', [id]);
  }

  async dropDiff(id: string): Promise<void> {
    await this.db.run('DELETE FROM desk_diff WHERE change_id = ?', [id]);
  }

  /** Writes the difference's entries of change `id` as they come, numbered from 0. */
  diffWriter(id: string): (rows: DiffRow[]) => Promise<void> {
    let seq = 0;
    return (rows) =>
      this.db.insertMany(
        'desk_diff',
        DIFF_COLUMNS,
        rows.map((row) => [id, seq++, ...row]),
      );
  }

  async saveProblems(id: string, problems: StagedChange['problems']): Promise<void> {
    await this.db.insertMany(
      'desk_problems',
      ['change_id', 'seq:int', 'row_number:int', 'column_name', 'value', 'message', 'rule'],
      problems.map((p, n) => [id, n, p.row, p.column, p.value, p.message, p.rule]),
    );
  }

  async problems(id: string, query: ProblemsQuery): Promise<OpsPage<ValidationProblem>> {
    const where = new Where('change_id = ?', id);
    if (query.rule) where.and('rule = ?', query.rule);
    if (query.column) where.and('column_name = ?', query.column);
    const select = 'row_number, column_name, value, message, rule';
    return pageOf(this.db, { select, from: 'desk_problems', where, order: 'seq' }, query, problemOf);
  }

  async *allProblems(id: string): AsyncIterable<ValidationProblem> {
    const CHUNK = 5000;
    for (let from = 0; ; from += CHUNK) {
      const rows = await this.db.all(
        'SELECT row_number, column_name, value, message, rule FROM desk_problems WHERE change_id = ? AND seq >= ? AND seq < ? ORDER BY seq',
        [id, from, from + CHUNK],
      );
      if (rows.length === 0) return;
      for (const row of rows) yield problemOf(row);
    }
  }

  /** A page of change `id`'s difference; `groups`: its counts per bank, kept with the change. */
  async diff(id: string, groups: GroupCounts[], query: DiffQuery): Promise<OpsPage<DiffEntry>> {
    // The total from the counts per bank kept with the change: no count over a million entries per page.
    const ops = query.op ? [query.op] : (['added', 'removed', 'changed'] as const);
    let total = 0;
    for (const g of query.q ? [] : groups) {
      if (query.country && g.country !== query.country) continue;
      if (query.bankCode && g.bankCode !== query.bankCode) continue;
      for (const op of ops) total += g[op];
    }
    const where = new Where('change_id = ?', id);
    if (query.op !== undefined) where.and('op = ?', query.op);
    if (query.country !== undefined) where.and('country = ?', query.country);
    if (query.bankCode !== undefined) where.and('bank_code = ?', query.bankCode);
    if (query.q) {
      // A search reads the change's entries (no index holds parts of names): its total is counted.
      const search = diffSearch(query.q);
      where.and(search.sql, search.param);
      total = Number((await this.db.all(`SELECT count(*) AS n FROM desk_diff ${where.sql}`, where.params))[0].n);
    }
    // Each filter pages along an index in its order (006/007 migrations): by operation, then country and bank;
    // by country and bank; or the difference's own order.
    const order = query.op
      ? 'op, country, bank_code, seq'
      : query.country
        ? 'country, bank_code, seq'
        : query.bankCode
          ? 'bank_code, seq'
          : 'seq';
    // Two steps: the page's positions from the index alone (the entries skipped over are never read), then
    // those entries. In one query the planner may walk the table by position instead, reading every entry
    // before the page.
    const positions = await this.db.all(`SELECT seq FROM desk_diff ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, [
      ...where.params,
      query.pageSize,
      (query.pageNumber - 1) * query.pageSize,
    ]);
    const seqs = positions.map((p) => Number(p.seq));
    const found = seqs.length
      ? await this.db.all(
          `SELECT ${DIFF_ENTRY_COLUMNS} FROM desk_diff WHERE change_id = ? AND seq IN (${seqs.map(() => '?').join(', ')})`,
          [id, ...seqs],
        )
      : [];
    const bySeq = new Map<number, Row>(found.map((r) => [Number(r.seq), r]));
    const rows = seqs.map((seq) => bySeq.get(seq)).filter((r): r is Row => r !== undefined);
    return page(rows.map(diffEntryOfRow), total, query.pageNumber, query.pageSize);
  }
}
