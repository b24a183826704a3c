import type pg from 'pg';
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
import { StoreUnavailableError } from '../store';
import { isUnavailable, type PgStore } from './pg-store';

// Ops accounts and sessions in PostgreSQL (migrations 006-ops-accounts.sql, 010-ops-account-grants.sql), on
// the lookup store's pool (its statement timeout bounds every call): every instance on the database shares
// them. A database that cannot answer is StoreUnavailableError (503 with Retry-After), as for the lookups.

interface SessionRow {
  token_sha256: string;
  account: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
}

/** An account's columns with its role grants as one JSON object (null when none). */
const ACCOUNT_COLUMNS = `a.name, a.roles, a.password_hash, a.disabled, a.created_at, a.updated_at, a.created_by,
  a.password_set_by, (SELECT json_object_agg(g.role, json_build_object('by', g.granted_by, 'at', g.granted_at))
  FROM ops_role_grants g WHERE g.account = a.name) AS grants`;
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

  async addAccount(account: NewOpsAccount): Promise<void> {
    // One statement: the account and its creator's grants of its roles are committed together.
    const { rows } = await this.query<{ name: string }>(
      `WITH added AS (
         INSERT INTO ops_accounts (name, roles, password_hash, disabled, created_at, updated_at, created_by,
           password_set_by)
         VALUES ($1, $2, $3, $4, $5, $5, $6, $6) ON CONFLICT (name) DO NOTHING RETURNING name
       ), granted AS (
         INSERT INTO ops_role_grants (account, role, granted_by, granted_at)
         SELECT added.name, role, $6, $5 FROM added, unnest(string_to_array($2, ' ')) AS role
       )
       SELECT name FROM added`,
      [
        account.name,
        rolesToText(account.roles),
        account.passwordHash,
        account.disabled,
        account.createdAt,
        account.createdBy,
      ],
    );
    if (rows.length === 0) throw new AccountExistsError(account.name);
  }

  async account(name: string): Promise<OpsAccountRecord | null> {
    const { rows } = await this.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM ops_accounts a WHERE a.name = $1`, [
      name,
    ]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async accounts(): Promise<OpsAccountRecord[]> {
    return (await this.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM ops_accounts a ORDER BY a.name`)).rows.map(
      toAccount,
    );
  }

  async updateAccount(name: string, change: AccountChange, now: number): Promise<boolean> {
    // One statement: the account's row, its role grants and its sessions change together (a CTE is one
    // snapshot, one commit). A role taken away loses its grant; a role kept keeps it; a new one is granted now.
    const ends = change.disabled === true || change.passwordHash !== undefined;
    const { rows } = await this.query<{ name: string }>(
      `WITH updated AS (
         UPDATE ops_accounts SET updated_at = $2,
           roles = COALESCE($3, roles),
           disabled = COALESCE($4, disabled),
           password_hash = COALESCE($5, password_hash),
           password_set_by = CASE WHEN $5::text IS NULL THEN password_set_by ELSE $7 END
         WHERE name = $1 RETURNING name
       ), ended AS (
         DELETE FROM ops_sessions WHERE $6 AND account IN (SELECT name FROM updated)
       ), revoked AS (
         DELETE FROM ops_role_grants
         WHERE $3::text IS NOT NULL AND account IN (SELECT name FROM updated)
           AND NOT (role = ANY (string_to_array($3::text, ' ')))
       ), granted AS (
         INSERT INTO ops_role_grants (account, role, granted_by, granted_at)
         SELECT updated.name, role, $7, $2 FROM updated, unnest(string_to_array($3::text, ' ')) AS role
         ON CONFLICT (account, role) DO NOTHING
       )
       SELECT name FROM updated`,
      [
        name,
        now,
        change.roles ? rolesToText(change.roles) : null,
        change.disabled ?? null,
        change.passwordHash ?? null,
        ends,
        change.by,
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
    const { rows } = await this.query<SessionRow & AccountRow & { session_created_at: string }>(
      `SELECT s.token_sha256, s.account, s.csrf_token, s.created_at AS session_created_at, s.last_seen_at,
              ${ACCOUNT_COLUMNS}
       FROM ops_sessions s JOIN ops_accounts a ON a.name = s.account WHERE s.token_sha256 = $1`,
      [tokenSha256],
    );
    const row = rows[0];
    if (!row) return null;
    return { session: toSession({ ...row, created_at: row.session_created_at }), account: toAccount(row) };
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
