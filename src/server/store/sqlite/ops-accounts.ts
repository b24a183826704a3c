import type Database from 'better-sqlite3';
import {
  AccountExistsError,
  rolesToText,
  toAccount,
  type AccountRow,
  type AccountChange,
  type NewOpsAccount,
  type OpsAccountRecord,
  type OpsAccountStore,
  type OpsSessionRecord,
} from '../ops-accounts';

// Ops accounts and sessions in the SQLite file (migrations 008-ops-accounts.sql, 012-ops-account-grants.sql).
// better-sqlite3 is synchronous and every statement here touches a few small rows: no transaction spans an
// await.

interface SessionRow {
  token_sha256: string;
  account: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
}

/** An account's columns with its role grants as one JSON object ({} when none). */
const ACCOUNT_COLUMNS = `a.name, a.roles, a.password_hash, a.disabled, a.created_at, a.updated_at, a.created_by,
  a.password_set_by, (SELECT json_group_object(g.role, json_object('by', g.granted_by, 'at', g.granted_at))
  FROM ops_role_grants g WHERE g.account = a.name) AS grants`;
const toSession = (row: SessionRow): OpsSessionRecord => ({
  tokenSha256: row.token_sha256,
  account: row.account,
  csrfToken: row.csrf_token,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
});

export class SqliteOpsAccounts implements OpsAccountStore {
  constructor(private readonly db: Database.Database) {}

  async addAccount(account: NewOpsAccount): Promise<void> {
    this.db.transaction(() => {
      const result = this.db
        .prepare(
          `INSERT INTO ops_accounts (name, roles, password_hash, disabled, created_at, updated_at, created_by,
             password_set_by)
           VALUES (@name, @roles, @passwordHash, @disabled, @createdAt, @createdAt, @createdBy, @createdBy)
           ON CONFLICT (name) DO NOTHING`,
        )
        .run({
          ...account,
          roles: rolesToText(account.roles),
          disabled: account.disabled ? 1 : 0,
        });
      if (result.changes === 0) throw new AccountExistsError(account.name);
      this.grant(account.name, account.roles, account.createdBy, account.createdAt);
    })();
  }

  private grant(account: string, roles: readonly string[], by: string, at: number) {
    const insert = this.db.prepare(
      `INSERT INTO ops_role_grants (account, role, granted_by, granted_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (account, role) DO NOTHING`,
    );
    for (const role of new Set(roles)) insert.run(account, role, by, at);
  }

  async account(name: string): Promise<OpsAccountRecord | null> {
    const row = this.db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM ops_accounts a WHERE a.name = ?`).get(name) as
      AccountRow | undefined;
    return row ? toAccount(row) : null;
  }

  async accounts(): Promise<OpsAccountRecord[]> {
    return (this.db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM ops_accounts a ORDER BY a.name`).all() as AccountRow[]).map(
      toAccount,
    );
  }

  async updateAccount(name: string, change: AccountChange, now: number): Promise<boolean> {
    return this.db.transaction(() => {
      const sets: string[] = ['updated_at = @now'];
      if (change.roles) sets.push('roles = @roles');
      if (change.disabled !== undefined) sets.push('disabled = @disabled');
      if (change.passwordHash) sets.push('password_hash = @passwordHash', 'password_set_by = @by');
      const result = this.db.prepare(`UPDATE ops_accounts SET ${sets.join(', ')} WHERE name = @name`).run({
        name,
        now,
        roles: change.roles ? rolesToText(change.roles) : null,
        disabled: change.disabled ? 1 : 0,
        passwordHash: change.passwordHash ?? null,
        by: change.by,
      });
      if (result.changes === 0) return false;
      if (change.roles) {
        // A role taken away loses its grant; a role kept keeps it; a role new to the account is granted now.
        const kept = new Set<string>(change.roles);
        const held = this.db
          .prepare('SELECT role FROM ops_role_grants WHERE account = ?')
          .pluck()
          .all(name) as string[];
        const revoke = this.db.prepare('DELETE FROM ops_role_grants WHERE account = ? AND role = ?');
        for (const role of held) if (!kept.has(role)) revoke.run(name, role);
        this.grant(name, change.roles, change.by, now);
      }
      if (change.disabled || change.passwordHash)
        this.db.prepare('DELETE FROM ops_sessions WHERE account = ?').run(name);
      return true;
    })();
  }

  async createSession(session: OpsSessionRecord): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO ops_sessions (token_sha256, account, csrf_token, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(session.tokenSha256, session.account, session.csrfToken, session.createdAt, session.lastSeenAt);
  }

  async session(tokenSha256: string): Promise<{ session: OpsSessionRecord; account: OpsAccountRecord } | null> {
    const row = this.db
      .prepare(
        `SELECT s.token_sha256, s.account, s.csrf_token, s.created_at AS session_created_at, s.last_seen_at,
                ${ACCOUNT_COLUMNS}
         FROM ops_sessions s JOIN ops_accounts a ON a.name = s.account WHERE s.token_sha256 = ?`,
      )
      .get(tokenSha256) as (SessionRow & AccountRow & { session_created_at: number }) | undefined;
    if (!row) return null;
    return { session: toSession({ ...row, created_at: row.session_created_at }), account: toAccount(row) };
  }

  async touchSession(tokenSha256: string, now: number): Promise<void> {
    this.db.prepare('UPDATE ops_sessions SET last_seen_at = ? WHERE token_sha256 = ?').run(now, tokenSha256);
  }

  async deleteSession(tokenSha256: string): Promise<void> {
    this.db.prepare('DELETE FROM ops_sessions WHERE token_sha256 = ?').run(tokenSha256);
  }

  async deleteSessionsOf(account: string): Promise<void> {
    this.db.prepare('DELETE FROM ops_sessions WHERE account = ?').run(account);
  }

  async deleteExpiredSessions(idleBefore: number, createdBefore: number): Promise<number> {
    return this.db
      .prepare('DELETE FROM ops_sessions WHERE last_seen_at < ? OR created_at < ?')
      .run(idleBefore, createdBefore).changes;
  }
}
