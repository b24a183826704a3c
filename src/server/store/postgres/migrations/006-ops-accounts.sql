-- The operations desk's accounts and browser sessions (issue #24; src/server/store/ops-accounts.ts), shared by
-- every instance on this database: a session opened through one is accepted by all. Times are epoch
-- milliseconds, as in SQLite. A session row holds the SHA-256 of its token, never the token.
CREATE TABLE ops_accounts (
  name text PRIMARY KEY,
  roles text NOT NULL,
  password_hash text NOT NULL,
  disabled boolean NOT NULL DEFAULT false,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE TABLE ops_sessions (
  token_sha256 text PRIMARY KEY,
  account text NOT NULL REFERENCES ops_accounts (name) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  created_at bigint NOT NULL,
  last_seen_at bigint NOT NULL
);
CREATE INDEX ops_sessions_account ON ops_sessions (account);
