import type { OpsRole } from '../../contract/ops-auth';
import type { LookupStore } from './store';
import { SqliteStore } from './sqlite/sqlite-store';
import { SqliteOpsAccounts } from './sqlite/ops-accounts';
import { PgStore } from './postgres/pg-store';
import { PgOpsAccounts } from './postgres/ops-accounts';

// The operations desk's accounts and browser sessions, kept in the lookup store's database (SQLite file or
// PostgreSQL: several instances on one PostgreSQL share accounts and sessions). One implementation per engine
// (sqlite/ops-accounts.ts, postgres/ops-accounts.ts); the ops-auth plugin and `npm run ops-user` use this.
// Times are epoch milliseconds.

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

/** The account store of the lookup store's own database. */
export function opsAccountsOf(store: LookupStore): OpsAccountStore {
  if (store instanceof SqliteStore) return new SqliteOpsAccounts(store.db);
  if (store instanceof PgStore) return new PgOpsAccounts(store);
  throw new Error(`no ops account store for the ${store.engine} store`);
}

export const rolesToText = (roles: readonly OpsRole[]) => [...new Set(roles)].join(' ');
const rolesFromText = (text: string) => text.split(' ').filter(Boolean) as OpsRole[];

/**
 * An account row as either engine reads it (SQLite: 0/1 and numbers, grants as JSON text; PostgreSQL: booleans,
 * bigints as text, grants as parsed JSON or null), with its role grants as one object role → {by, at}.
 */
export interface AccountRow {
  name: string;
  roles: string;
  password_hash: string;
  disabled: number | boolean;
  created_at: number | string;
  updated_at: number | string;
  created_by: string | null;
  password_set_by: string | null;
  grants: string | Record<string, RoleGrant> | null;
}

export const toAccount = (row: AccountRow): OpsAccountRecord => ({
  name: row.name,
  roles: rolesFromText(row.roles),
  passwordHash: row.password_hash,
  disabled: Boolean(row.disabled),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
  createdBy: row.created_by,
  passwordSetBy: row.password_set_by,
  grants: (typeof row.grants === 'string' ? JSON.parse(row.grants) : row.grants) ?? {},
});
