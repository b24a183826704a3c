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
}

export interface OpsSessionRecord {
  /** SHA-256 (hex) of the session token the cookie carries; the token itself is never stored. */
  tokenSha256: string;
  account: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface AccountChange {
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
  addAccount(account: Omit<OpsAccountRecord, 'updatedAt'>): Promise<void>;
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
export const rolesFromText = (text: string) => text.split(' ').filter(Boolean) as OpsRole[];
