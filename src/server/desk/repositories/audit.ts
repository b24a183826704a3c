import type { AuditEntry, AuditQuery, OpsPage } from '../../../contract/ops-changes';
import type { DeskDb } from '../db';
import type { OpsEvent } from '../desk';
import { Where, json, pageOf } from './rows';

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
    const where = new Where();
    if (query.action) where.and('action = ?', query.action);
    if (query.actor) where.and('actor = ?', query.actor);
    if (query.from) where.and('at >= ?', new Date(query.from).toISOString());
    if (query.to) where.and('at < ?', new Date(query.to).toISOString());
    const select = 'id, at, actor, via, action, target, detail';
    return pageOf(this.db, { select, from: 'ops_audit', where, order: 'id DESC' }, query, (r) => ({
      id: Number(r.id),
      at: String(r.at),
      actor: String(r.actor),
      via: String(r.via),
      action: String(r.action),
      target: (r.target as string | null) ?? null,
      detail: json<Record<string, unknown>>(r.detail),
    }));
  }
}
