import type pg from 'pg';
import {
  AccountExistsError,
  rolesFromText,
  rolesToText,
  type AccountChange,
  type OpsAccountRecord,
  type OpsAccountStore,
  type OpsSessionRecord,
} from '../ops-accounts';
import { StoreUnavailableError } from '../store';
import { isUnavailable, type PgStore } from './pg-store';

// Ops accounts and sessions in PostgreSQL (migration 006-ops-accounts.sql), on the lookup store's pool (its
// statement timeout bounds every call): every instance on the database shares them. A database that cannot
// answer is StoreUnavailableError (503 with Retry-After), as for the lookups.

interface AccountRow {
  name: string;
  roles: string;
  password_hash: string;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}
interface SessionRow {
  token_sha256: string;
  account: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
}

const toAccount = (row: AccountRow): OpsAccountRecord => ({
  name: row.name,
  roles: rolesFromText(row.roles),
  passwordHash: row.password_hash,
  disabled: row.disabled,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});
const toSession = (row: SessionRow): OpsSessionRecord => ({
  tokenSha256: row.token_sha256,
  account: row.account,
  csrfToken: row.csrf_token,
  createdAt: Number(row.created_at),
  lastSeenAt: Number(row.last_seen_at),
});

export class PgOpsAccounts implements OpsAccountStore {
  private readonly pool: pg.Pool;
  constructor(store: PgStore) {
    this.pool = store.pool;
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(sql, params);
    } catch (error) {
      if (isUnavailable(error))
        throw new StoreUnavailableError(`PostgreSQL unavailable: ${(error as Error).message}`, 5, { cause: error });
      throw error;
    }
  }

  async addAccount(account: Omit<OpsAccountRecord, 'updatedAt'>): Promise<void> {
    const result = await this.query(
      `INSERT INTO ops_accounts (name, roles, password_hash, disabled, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (name) DO NOTHING`,
      [account.name, rolesToText(account.roles), account.passwordHash, account.disabled, account.createdAt],
    );
    if (result.rowCount === 0) throw new AccountExistsError(account.name);
  }

  async account(name: string): Promise<OpsAccountRecord | null> {
    const { rows } = await this.query<AccountRow>('SELECT * FROM ops_accounts WHERE name = $1', [name]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async accounts(): Promise<OpsAccountRecord[]> {
    return (await this.query<AccountRow>('SELECT * FROM ops_accounts ORDER BY name')).rows.map(toAccount);
  }

  async updateAccount(name: string, change: AccountChange, now: number): Promise<boolean> {
    // One statement: the account's row and its sessions change together (a CTE is one snapshot, one commit).
    const ends = change.disabled === true || change.passwordHash !== undefined;
    const { rows } = await this.query<{ name: string }>(
      `WITH updated AS (
         UPDATE ops_accounts SET updated_at = $2,
           roles = COALESCE($3, roles),
           disabled = COALESCE($4, disabled),
           password_hash = COALESCE($5, password_hash)
         WHERE name = $1 RETURNING name
       ), ended AS (
         DELETE FROM ops_sessions WHERE $6 AND account IN (SELECT name FROM updated)
       )
       SELECT name FROM updated`,
      [
        name,
        now,
        change.roles ? rolesToText(change.roles) : null,
        change.disabled ?? null,
        change.passwordHash ?? null,
        ends,
      ],
    );
    return rows.length > 0;
  }

  async createSession(session: OpsSessionRecord): Promise<void> {
    await this.query(
      'INSERT INTO ops_sessions (token_sha256, account, csrf_token, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $5)',
      [session.tokenSha256, session.account, session.csrfToken, session.createdAt, session.lastSeenAt],
    );
  }

  async session(tokenSha256: string): Promise<{ session: OpsSessionRecord; account: OpsAccountRecord } | null> {
    const { rows } = await this.query<SessionRow & AccountRow & { account_created_at: string }>(
      `SELECT s.token_sha256, s.account, s.csrf_token, s.created_at, s.last_seen_at, a.name, a.roles,
              a.password_hash, a.disabled, a.created_at AS account_created_at, a.updated_at
       FROM ops_sessions s JOIN ops_accounts a ON a.name = s.account WHERE s.token_sha256 = $1`,
      [tokenSha256],
    );
    const row = rows[0];
    if (!row) return null;
    return { session: toSession(row), account: toAccount({ ...row, created_at: row.account_created_at }) };
  }

  async touchSession(tokenSha256: string, now: number): Promise<void> {
    await this.query('UPDATE ops_sessions SET last_seen_at = $2 WHERE token_sha256 = $1', [tokenSha256, now]);
  }

  async deleteSession(tokenSha256: string): Promise<void> {
    await this.query('DELETE FROM ops_sessions WHERE token_sha256 = $1', [tokenSha256]);
  }

  async deleteSessionsOf(account: string): Promise<void> {
    await this.query('DELETE FROM ops_sessions WHERE account = $1', [account]);
  }

  async deleteExpiredSessions(idleBefore: number, createdBefore: number): Promise<number> {
    const result = await this.query('DELETE FROM ops_sessions WHERE last_seen_at < $1 OR created_at < $2', [
      idleBefore,
      createdBefore,
    ]);
    return result.rowCount ?? 0;
  }
}
