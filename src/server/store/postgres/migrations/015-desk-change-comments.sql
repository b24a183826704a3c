-- Comments on a change, as in SQLite (017-desk-change-comments.sql); one schema for both stores.
CREATE TABLE desk_change_comments (
  id BIGSERIAL PRIMARY KEY,
  change_id TEXT NOT NULL,
  at TEXT NOT NULL,
  author TEXT NOT NULL,
  via TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX desk_change_comments_by_change ON desk_change_comments (change_id, id);
