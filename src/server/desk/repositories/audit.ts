import type { AuditEntry, AuditQuery, OpsPage } from '../../../contract/ops-changes';
import type { DeskDb } from '../db';
import type { OpsEvent } from '../desk';
import { json, page } from './rows';

// The desk's audit trail (ops_audit): one row per event, newest first.

/** The actor of what the desk does by itself (expiry, recovery). */
export const SYSTEM = { name: 'system', via: 'system' } as const;

export class AuditRepository {
  constructor(private readonly db: DeskDb) {}

  /** Records an event (on `db`: inside a transaction); its id. */
  async record(event: OpsEvent, db = this.db): Promise<number> {
    const [row] = await db.all(
      'INSERT INTO ops_audit (at, actor, via, action, target, detail) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
      [
        (event.at ?? new Date()).toISOString(),
        event.actor,
        event.via,
        event.action,
        event.target ?? null,
        event.detail ? JSON.stringify(event.detail) : null,
      ],
    );
    return Number(row.id);
  }

  async revise(id: number, detail: Record<string, unknown>): Promise<void> {
    await this.db.run('UPDATE ops_audit SET detail = ? WHERE id = ?', [JSON.stringify(detail), id]);
  }

  async page(query: AuditQuery): Promise<OpsPage<AuditEntry>> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.action) {
      where.push('action = ?');
      params.push(query.action);
    }
    if (query.actor) {
      where.push('actor = ?');
      params.push(query.actor);
    }
    if (query.from) {
      where.push('at >= ?');
      params.push(new Date(query.from).toISOString());
    }
    if (query.to) {
      where.push('at < ?');
      params.push(new Date(query.to).toISOString());
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ n }] = await this.db.all(`SELECT count(*) AS n FROM ops_audit ${filter}`, params);
    const rows = await this.db.all(
      `SELECT id, at, actor, via, action, target, detail FROM ops_audit ${filter} ORDER BY id DESC LIMIT ? OFFSET ?`,
      [...params, query.pageSize, (query.pageNumber - 1) * query.pageSize],
    );
    return page(
      rows.map((r) => ({
        id: Number(r.id),
        at: String(r.at),
        actor: String(r.actor),
        via: String(r.via),
        action: String(r.action),
        target: (r.target as string | null) ?? null,
        detail: json<Record<string, unknown>>(r.detail),
      })),
      Number(n),
      query.pageNumber,
      query.pageSize,
    );
  }
}
