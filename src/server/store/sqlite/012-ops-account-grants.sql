-- Who stands behind each ops account, for four eyes (src/server/desk/desk.ts, checkFourEyes): who created it,
-- who last set its password, and who granted each of its roles and when. An approver the change's maker stands
-- behind cannot approve it. Accounts and roles from before this was recorded get NULL: not known.
ALTER TABLE ops_accounts ADD COLUMN created_by TEXT;
ALTER TABLE ops_accounts ADD COLUMN password_set_by TEXT;
CREATE TABLE ops_role_grants (
  account TEXT NOT NULL REFERENCES ops_accounts (name) ON DELETE CASCADE,
  role TEXT NOT NULL,             -- maker, checker or admin; the account's roles column holds the same set
  granted_by TEXT,
  granted_at INTEGER,             -- epoch milliseconds
  PRIMARY KEY (account, role)
);
INSERT INTO ops_role_grants (account, role, granted_by, granted_at)
SELECT a.name, r.role, NULL, NULL
FROM ops_accounts a
JOIN (SELECT 'maker' AS role UNION ALL SELECT 'checker' UNION ALL SELECT 'admin') r
  ON ' ' || a.roles || ' ' LIKE '% ' || r.role || ' %';
