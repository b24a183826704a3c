-- Comments on a change (desk/change-flow.ts): the maker and checkers talk about it where it is decided, kept
-- with the change for good (a change is never deleted). Plain text, at most 2,000 characters.
CREATE TABLE desk_change_comments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  change_id TEXT NOT NULL,
  at TEXT NOT NULL,
  author TEXT NOT NULL,
  via TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX desk_change_comments_by_change ON desk_change_comments (change_id, id);
