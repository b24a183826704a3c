-- Mirrors SQLite's 005: the state as each file spelled it, beside the code that is served and searched, so an
-- export writes back what was imported. Rows loaded before this keep their code as their spelling.
ALTER TABLE bank_branches ADD COLUMN state_published text;
UPDATE bank_branches SET state_published = state;
ALTER TABLE agents ADD COLUMN state_published text;
UPDATE agents SET state_published = state;
