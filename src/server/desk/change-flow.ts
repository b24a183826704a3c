import { personOf } from '../../contract/ops-auth';
import type { ChangeKind, DiffSummary } from '../../contract/ops-changes';
import type { ChangeComment, CommentBody } from '../../contract/ops-flow';
import type { LookupStore } from '../store/store';
import { deskDbOf, type DeskDb } from './db';
import { RoleRequiredError, hasRole, type OpsActor } from './desk';
import type { StagedAgainst } from './stage-in-worker';

// The change flow around a staged change (contract/ops-flow.ts): comments kept with the change (migrations
// sqlite/017, postgres/015) and audited, how many changes wait for a checker, the other pending changes whose
// scope overlaps a change's, and whether a staged file is identical to what is served (then refused).

/** Whether a staging found nothing to publish: a readable file without problems whose difference is empty. */
export function isIdentical(staged: Pick<StagedAgainst, 'diff' | 'problems'>): boolean {
  if (!staged.diff || staged.problems.length > 0) return false;
  const { added, changed, removed } = staged.diff.summary.counts;
  return added + changed + removed === 0;
}

const mayTalk = (actor: OpsActor) => hasRole(actor, 'maker') || hasRole(actor, 'checker');

export class ChangeFlow {
  private readonly db: DeskDb;
  constructor(store: LookupStore) {
    this.db = deskDbOf(store);
  }

  /** The change's comments, oldest first. */
  async comments(changeId: string): Promise<ChangeComment[]> {
    const rows = await this.db.all(
      'SELECT id, change_id, at, author, via, body FROM desk_change_comments WHERE change_id = ? ORDER BY id',
      [changeId],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      changeId: String(r.change_id),
      author: String(r.author),
      via: String(r.via),
      at: String(r.at),
      text: String(r.body),
    }));
  }

  /** Keeps a comment of a maker or checker on the change, with its audit row, in one transaction. */
  async addComment(actor: OpsActor, changeId: string, body: CommentBody): Promise<ChangeComment> {
    if (!mayTalk(actor)) throw new RoleRequiredError('maker', 'commenting on a change (or the checker role)');
    const at = new Date().toISOString();
    const text = body.text.replace(/\r\n?/g, '\n');
    return this.db.transaction(async (tx) => {
      const [row] = await tx.all(
        'INSERT INTO desk_change_comments (change_id, at, author, via, body) VALUES (?, ?, ?, ?, ?) RETURNING id',
        [changeId, at, actor.name, actor.via, text],
      );
      const id = Number(row.id);
      await tx.run('INSERT INTO ops_audit (at, actor, via, action, target, detail) VALUES (?, ?, ?, ?, ?, ?)', [
        at,
        actor.name,
        actor.via,
        'comment',
        changeId,
        JSON.stringify({ commentId: id, text }),
      ]);
      return { id, changeId, author: actor.name, via: actor.via, at, text };
    });
  }

  /**
   * How many changes wait for this checker: staged (also stale: approving re-diffs them), staged by another
   * person, without problems and with a difference. Zero for an account without the checker role.
   */
  async waitingFor(actor: OpsActor): Promise<number> {
    if (!hasRole(actor, 'checker')) return 0;
    const rows = await this.db.all(
      `SELECT staged_by FROM desk_changes WHERE status = 'staged' AND problem_count = 0 AND summary IS NOT NULL`,
    );
    const me = personOf(actor.name);
    return rows.filter((r) => personOf(String(r.staged_by)) !== me).length;
  }

  /**
   * The other pending changes (staged or stale) whose scope overlaps this one's: the same kind and, for branches
   * (replaced per country), a country in common; head offices and agents replace their whole kind, so every
   * pending change of the kind overlaps.
   */
  async overlapping(change: { id: string; kind: ChangeKind; countries: string[] }): Promise<string[]> {
    const rows = await this.db.all(
      `SELECT id, countries FROM desk_changes WHERE kind = ? AND status = 'staged' AND id <> ? ORDER BY staged_at DESC`,
      [change.kind, change.id],
    );
    const mine = new Set(change.countries);
    return rows
      .filter(
        (r) =>
          change.kind !== 'branches' ||
          String(r.countries ?? '')
            .split(' ')
            .some((country) => mine.has(country)),
      )
      .map((r) => String(r.id));
  }
}

/** The new difference's counts in words, for the 409 of a re-diffed approval. */
export function countsInWords(diff: DiffSummary | null): string {
  if (!diff) return 'the file no longer validates against the served data';
  const { added, changed, removed } = diff.counts;
  return `${added} added, ${changed} changed, ${removed} removed`;
}
