-- The operations desk's accounts and browser sessions (issue #24; src/server/store/ops-accounts.ts). Times are
-- epoch milliseconds, so expiry is plain arithmetic on both engines. A session row holds the SHA-256 of its
-- token, never the token: a copy of the database does not sign anyone in.
CREATE TABLE ops_accounts (
  name TEXT PRIMARY KEY,
  roles TEXT NOT NULL,            -- space-separated: maker checker admin
  password_hash TEXT NOT NULL,    -- scrypt$N$r$p$salt$hash (src/server/desk/passwords.ts)
  disabled INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE ops_sessions (
  token_sha256 TEXT PRIMARY KEY,
  account TEXT NOT NULL REFERENCES ops_accounts (name) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL
);
CREATE INDEX ops_sessions_account ON ops_sessions (account);
