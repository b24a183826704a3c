-- Who stands behind each ops account, for four eyes (src/server/desk/desk.ts, checkFourEyes): who created it,
-- who last set its password, and who granted each of its roles and when. An approver the change's maker stands
-- behind cannot approve it. Accounts and roles from before this was recorded get NULL: not known.
ALTER TABLE ops_accounts ADD COLUMN created_by text, ADD COLUMN password_set_by text;
CREATE TABLE ops_role_grants (
  account text NOT NULL REFERENCES ops_accounts (name) ON DELETE CASCADE,
  role text NOT NULL,
  granted_by text,
  granted_at bigint,
  PRIMARY KEY (account, role)
);
INSERT INTO ops_role_grants (account, role, granted_by, granted_at)
SELECT a.name, r.role, NULL, NULL
FROM ops_accounts a, regexp_split_to_table(a.roles, ' ') AS r (role)
WHERE r.role <> '';
