-- The difference a checker verifies (desk/code-changes.ts, desk/staged-quality.ts): a code change's served key
-- (`previous_key`, JSON parts as key_parts), the entry's text its search reads (`search_text`: keys, codes and
-- names, lower case), and the quality findings a staged change would add to what is served.
ALTER TABLE desk_diff ADD COLUMN previous_key TEXT;
ALTER TABLE desk_diff ADD COLUMN search_text TEXT;

CREATE TABLE desk_change_quality (
  change_id TEXT PRIMARY KEY,
  report TEXT NOT NULL
);
