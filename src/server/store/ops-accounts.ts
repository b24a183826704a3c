import type { OpsRole } from '../../contract/ops-auth';
import { deskDbOf, type DeskDb, type Row } from '../desk/db';
import type { LookupStore } from './store';

// The operations desk's accounts and browser sessions, kept in the lookup store's database (SQLite file or
// PostgreSQL: several instances on one PostgreSQL share accounts and sessions). One repository with one SQL
// text for both engines, over the desk's driver (desk/db.ts: the store's own connection or pool, whose busy and
// statement timeouts bound every call; a PostgreSQL that cannot answer is StoreUnavailableError, a 503 with
// Retry-After). The ops-auth plugin and `npm run ops-user` use it. Times are epoch milliseconds.

export interface OpsAccountRecord {
  name: string;
  roles: OpsRole[];
  /** scrypt$N$r$p$salt$hash (desk/passwords.ts); never leaves the server. */
  passwordHash: string;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
  /**
   * Who created the account: an ops account's name (the admin's route) or the shell user (`npm run ops-user`);
   * null for an account created before this was recorded.
   */
  createdBy: string | null;
  /** Who last set its password (its creator at first); null before this was recorded. */
  passwordSetBy: string | null;
  /** Each role's grant: who granted it and when (null for a role granted before this was recorded). */
  grants: Partial<Record<OpsRole, RoleGrant>>;
}

export interface RoleGrant {
  by: string | null;
  at: number | null;
}

/** A new account: its creator grants its roles and sets its first password. */
export type NewOpsAccount = Omit<OpsAccountRecord, 'updatedAt' | 'passwordSetBy' | 'grants'> & { createdBy: string };

export interface OpsSessionRecord {
  /** SHA-256 (hex) of the session token the cookie carries; the token itself is never stored. */
  tokenSha256: string;
  account: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface AccountChange {
  /** Who makes the change: the grantor of roles the account did not hold, the setter of the password. */
  by: string;
  /** The roles it holds from now on; a role it keeps keeps its grant. */
  roles?: OpsRole[];
  disabled?: boolean;
  passwordHash?: string;
}

/** addAccount: the name is taken. */
export class AccountExistsError extends Error {
  constructor(readonly account: string) {
    super(`an account named ${account} already exists`);
    this.name = 'AccountExistsError';
  }
}

export interface OpsAccountStore {
  /** Throws AccountExistsError when the name is taken. */
  addAccount(account: NewOpsAccount): Promise<void>;
  account(name: string): Promise<OpsAccountRecord | null>;
  accounts(): Promise<OpsAccountRecord[]>;
  /** False when there is no such account. A disabled account, or a new password, ends its sessions. */
  updateAccount(name: string, change: AccountChange, now: number): Promise<boolean>;
  createSession(session: OpsSessionRecord): Promise<void>;
  /** The session with its account, when both exist. */
  session(tokenSha256: string): Promise<{ session: OpsSessionRecord; account: OpsAccountRecord } | null>;
  touchSession(tokenSha256: string, now: number): Promise<void>;
  deleteSession(tokenSha256: string): Promise<void>;
  deleteSessionsOf(account: string): Promise<void>;
  /** Removes sessions idle since before `idleBefore` or opened before `createdBefore`; returns how many. */
  deleteExpiredSessions(idleBefore: number, createdBefore: number): Promise<number>;
}

export const rolesToText = (roles: readonly OpsRole[]) => [...new Set(roles)].join(' ');
const rolesFromText = (text: string) => text.split(' ').filter(Boolean) as OpsRole[];

const ACCOUNT_COLUMNS = `name, roles, password_hash, disabled, created_at, updated_at, created_by, password_set_by`;

/** The accounts of `rows` with their role grants (read in one more statement: both engines alike). */
async function withGrants(db: DeskDb, rows: Row[]): Promise<OpsAccountRecord[]> {
  if (rows.length === 0) return [];
  const names = rows.map((row) => String(row.name));
  const grantRows = await db.all(
    `SELECT account, role, granted_by, granted_at FROM ops_role_grants WHERE account IN (${names.map(() => '?').join(', ')})`,
    names,
  );
  const grants = new Map<string, Partial<Record<OpsRole, RoleGrant>>>();
  for (const g of grantRows) {
    const of = grants.get(String(g.account)) ?? {};
    of[g.role as OpsRole] = {
      by: (g.granted_by as string | null) ?? null,
      at: g.granted_at === null ? null : Number(g.granted_at),
    };
    grants.set(String(g.account), of);
  }
  return rows.map((row) => ({
    name: String(row.name),
    roles: rolesFromText(String(row.roles)),
    passwordHash: String(row.password_hash),
    // SQLite answers 0/1, PostgreSQL a boolean; PostgreSQL's bigints come as text.
    disabled: Boolean(row.disabled),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    createdBy: (row.created_by as string | null) ?? null,
    passwordSetBy: (row.password_set_by as string | null) ?? null,
    grants: grants.get(String(row.name)) ?? {},
  }));
}

const GRANT_SQL = `INSERT INTO ops_role_grants (account, role, granted_by, granted_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (account, role) DO NOTHING`;

async function grant(tx: DeskDb, account: string, roles: readonly string[], by: string, at: number) {
  for (const role of new Set(roles)) await tx.run(GRANT_SQL, [account, role, by, at]);
}

const toSession = (row: Row): OpsSessionRecord => ({
  tokenSha256: String(row.token_sha256),
  account: String(row.account),
  csrfToken: String(row.csrf_token),
  createdAt: Number(row.created_at),
  lastSeenAt: Number(row.last_seen_at),
});

class OpsAccounts implements OpsAccountStore {
  constructor(private readonly db: DeskDb) {}

  async addAccount(account: NewOpsAccount): Promise<void> {
    // One transaction: the account and its creator's grants of its roles.
    await this.db.transaction(async (tx) => {
      const added = await tx.run(
        `INSERT INTO ops_accounts (name, roles, password_hash, disabled, created_at, updated_at, created_by, password_set_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
        [
          account.name,
          rolesToText(account.roles),
          account.passwordHash,
          account.disabled ? 1 : 0,
          account.createdAt,
          account.createdAt,
          account.createdBy,
          account.createdBy,
        ],
      );
      if (added === 0) throw new AccountExistsError(account.name);
      await grant(tx, account.name, account.roles, account.createdBy, account.createdAt);
    });
  }

  async account(name: string): Promise<OpsAccountRecord | null> {
    const rows = await this.db.all(`SELECT ${ACCOUNT_COLUMNS} FROM ops_accounts WHERE name = ?`, [name]);
    return (await withGrants(this.db, rows))[0] ?? null;
  }

  async accounts(): Promise<OpsAccountRecord[]> {
    return withGrants(this.db, await this.db.all(`SELECT ${ACCOUNT_COLUMNS} FROM ops_accounts ORDER BY name`));
  }

  async updateAccount(name: string, change: AccountChange, now: number): Promise<boolean> {
    // One transaction: the account's row, its role grants and its sessions change together.
    return this.db.transaction(async (tx) => {
      const sets = ['updated_at = ?'];
      const params: unknown[] = [now];
      const set = (column: string, value: unknown) => {
        sets.push(`${column} = ?`);
        params.push(value);
      };
      if (change.roles) set('roles', rolesToText(change.roles));
      if (change.disabled !== undefined) set('disabled', change.disabled ? 1 : 0);
      if (change.passwordHash) {
        set('password_hash', change.passwordHash);
        set('password_set_by', change.by);
      }
      const updated = await tx.run(`UPDATE ops_accounts SET ${sets.join(', ')} WHERE name = ?`, [...params, name]);
      if (updated === 0) return false;
      if (change.roles) {
        // A role taken away loses its grant; a role kept keeps it; a role new to the account is granted now.
        const kept = new Set<string>(change.roles);
        for (const { role } of await tx.all('SELECT role FROM ops_role_grants WHERE account = ?', [name]))
          if (!kept.has(String(role)))
            await tx.run('DELETE FROM ops_role_grants WHERE account = ? AND role = ?', [name, role]);
        await grant(tx, name, change.roles, change.by, now);
      }
      if (change.disabled || change.passwordHash) await tx.run('DELETE FROM ops_sessions WHERE account = ?', [name]);
      return true;
    });
  }

  async createSession(session: OpsSessionRecord): Promise<void> {
    await this.db.run(
      'INSERT INTO ops_sessions (token_sha256, account, csrf_token, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
      [session.tokenSha256, session.account, session.csrfToken, session.createdAt, session.lastSeenAt],
    );
  }

  async session(tokenSha256: string): Promise<{ session: OpsSessionRecord; account: OpsAccountRecord } | null> {
    const [row] = await this.db.all(
      `SELECT s.token_sha256, s.csrf_token, s.created_at AS session_created_at, s.last_seen_at,
         ${ACCOUNT_COLUMNS.replace(/(\w+)/g, 'a.$1')}
       FROM ops_sessions s JOIN ops_accounts a ON a.name = s.account WHERE s.token_sha256 = ?`,
      [tokenSha256],
    );
    if (!row) return null;
    const [account] = await withGrants(this.db, [row]);
    return { session: toSession({ ...row, account: row.name, created_at: row.session_created_at }), account: account! };
  }

  async touchSession(tokenSha256: string, now: number): Promise<void> {
    await this.db.run('UPDATE ops_sessions SET last_seen_at = ? WHERE token_sha256 = ?', [now, tokenSha256]);
  }

  async deleteSession(tokenSha256: string): Promise<void> {
    await this.db.run('DELETE FROM ops_sessions WHERE token_sha256 = ?', [tokenSha256]);
  }

  async deleteSessionsOf(account: string): Promise<void> {
    await this.db.run('DELETE FROM ops_sessions WHERE account = ?', [account]);
  }

  async deleteExpiredSessions(idleBefore: number, createdBefore: number): Promise<number> {
    return this.db.run('DELETE FROM ops_sessions WHERE last_seen_at < ? OR created_at < ?', [
      idleBefore,
      createdBefore,
    ]);
  }
}

/** The account store of the lookup store's own database. */
export const opsAccountsOf = (store: LookupStore): OpsAccountStore => new OpsAccounts(deskDbOf(store));
