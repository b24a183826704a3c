-- The difference a checker verifies, as in SQLite (018-desk-diff-search.sql); one schema for both stores.
ALTER TABLE desk_diff ADD COLUMN previous_key TEXT;
ALTER TABLE desk_diff ADD COLUMN search_text TEXT;

CREATE TABLE desk_change_quality (
  change_id TEXT PRIMARY KEY,
  report TEXT NOT NULL
);
