import type Database from 'better-sqlite3';
import {
  AccountExistsError,
  rolesFromText,
  rolesToText,
  type AccountChange,
  type OpsAccountRecord,
  type OpsAccountStore,
  type OpsSessionRecord,
} from '../ops-accounts';

// Ops accounts and sessions in the SQLite file (migration 008-ops-accounts.sql). better-sqlite3 is
// synchronous and every statement here touches one small row: no transaction spans an await.

interface AccountRow {
  name: string;
  roles: string;
  password_hash: string;
  disabled: number;
  created_at: number;
  updated_at: number;
}
interface SessionRow {
  token_sha256: string;
  account: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
}

const toAccount = (row: AccountRow): OpsAccountRecord => ({
  name: row.name,
  roles: rolesFromText(row.roles),
  passwordHash: row.password_hash,
  disabled: row.disabled === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
const toSession = (row: SessionRow): OpsSessionRecord => ({
  tokenSha256: row.token_sha256,
  account: row.account,
  csrfToken: row.csrf_token,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
});

export class SqliteOpsAccounts implements OpsAccountStore {
  constructor(private readonly db: Database.Database) {}

  async addAccount(account: Omit<OpsAccountRecord, 'updatedAt'>): Promise<void> {
    const result = this.db
      .prepare(
        `INSERT INTO ops_accounts (name, roles, password_hash, disabled, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
      )
      .run(
        account.name,
        rolesToText(account.roles),
        account.passwordHash,
        account.disabled ? 1 : 0,
        account.createdAt,
        account.createdAt,
      );
    if (result.changes === 0) throw new AccountExistsError(account.name);
  }

  async account(name: string): Promise<OpsAccountRecord | null> {
    const row = this.db.prepare('SELECT * FROM ops_accounts WHERE name = ?').get(name) as AccountRow | undefined;
    return row ? toAccount(row) : null;
  }

  async accounts(): Promise<OpsAccountRecord[]> {
    return (this.db.prepare('SELECT * FROM ops_accounts ORDER BY name').all() as AccountRow[]).map(toAccount);
  }

  async updateAccount(name: string, change: AccountChange, now: number): Promise<boolean> {
    return this.db.transaction(() => {
      const sets: string[] = ['updated_at = @now'];
      if (change.roles) sets.push('roles = @roles');
      if (change.disabled !== undefined) sets.push('disabled = @disabled');
      if (change.passwordHash) sets.push('password_hash = @passwordHash');
      const result = this.db.prepare(`UPDATE ops_accounts SET ${sets.join(', ')} WHERE name = @name`).run({
        name,
        now,
        roles: change.roles ? rolesToText(change.roles) : null,
        disabled: change.disabled ? 1 : 0,
        passwordHash: change.passwordHash ?? null,
      });
      if (result.changes === 0) return false;
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
        `SELECT s.token_sha256, s.account, s.csrf_token, s.created_at, s.last_seen_at, a.name, a.roles,
                a.password_hash, a.disabled, a.created_at AS account_created_at, a.updated_at
         FROM ops_sessions s JOIN ops_accounts a ON a.name = s.account WHERE s.token_sha256 = ?`,
      )
      .get(tokenSha256) as (SessionRow & AccountRow & { account_created_at: number }) | undefined;
    if (!row) return null;
    return { session: toSession(row), account: toAccount({ ...row, created_at: row.account_created_at }) };
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
