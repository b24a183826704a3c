-- Contains indexes that an import fills fast (issue #5: loading 300,000 branches spent 6.4 s of an 11 s write
-- on them). They still only narrow the rows that instr() decides on (003), so answers do not change.
-- - Smaller trigram indexes: no positions (detail=none) and no per-row sizes (columnsize=0, which only ranking
--   uses). A term is matched as all of its trigrams (sqlite-store.ts, trigramQuery) instead of as a phrase: a
--   superset of the rows holding the term, which instr() then narrows to exactly those.
-- - Filled in rowid order: 'rebuild' read branch_name and address_line1_search from the covering index
--   bank_branches_by_name, rowids arrived out of order, and FTS5 flushed its pending segment at every step
--   back. The fill below reads the table itself, ordered by rowid.
-- - A 128 MB pending hash instead of 1 MB: a few large segments instead of hundreds of small ones to merge.
--   Only writers (the import, the seed) use it, for the length of a load.
-- - Address Line 2 and district are few texts repeated over many branches (Bangladesh: 64 of each for 10,026
--   branches): each lower-cased text is stored once in branch_texts and a branch points to it. A contains
--   search reads the few texts, then the branches pointing to the matching ones (an index on the pointer):
--   exact for terms of any length, and nothing to tokenise per branch.
DROP TABLE agents_fts;
DROP TABLE bank_branches_names_fts;
DROP TABLE bank_branches_search_fts;
CREATE VIRTUAL TABLE agents_fts USING fts5(
  agent_name,
  content = 'agents', content_rowid = 'id', tokenize = 'trigram case_sensitive 1', detail = none, columnsize = 0
);
CREATE VIRTUAL TABLE bank_branches_names_fts USING fts5(
  branch_name,
  content = 'bank_branches', content_rowid = 'id', tokenize = 'trigram case_sensitive 1', detail = none, columnsize = 0
);
CREATE VIRTUAL TABLE bank_branches_search_fts USING fts5(
  address_line1_search,
  content = 'bank_branches', content_rowid = 'id', tokenize = 'trigram case_sensitive 1', detail = none, columnsize = 0
);
INSERT INTO agents_fts (agents_fts, rank) VALUES ('hashsize', 134217728);
INSERT INTO bank_branches_names_fts (bank_branches_names_fts, rank) VALUES ('hashsize', 134217728);
INSERT INTO bank_branches_search_fts (bank_branches_search_fts, rank) VALUES ('hashsize', 134217728);

CREATE TABLE branch_texts (
  id INTEGER PRIMARY KEY,
  text TEXT NOT NULL UNIQUE
) STRICT;
ALTER TABLE bank_branches ADD COLUMN address_line2_text INTEGER;
ALTER TABLE bank_branches ADD COLUMN district_text INTEGER;
INSERT OR IGNORE INTO branch_texts (text) SELECT address_line2_search FROM bank_branches WHERE address_line2_search IS NOT NULL ORDER BY id;
INSERT OR IGNORE INTO branch_texts (text) SELECT district_search FROM bank_branches WHERE district_search IS NOT NULL ORDER BY id;
UPDATE bank_branches SET
  address_line2_text = (SELECT t.id FROM branch_texts t WHERE t.text = address_line2_search),
  district_text = (SELECT t.id FROM branch_texts t WHERE t.text = district_search);
ALTER TABLE bank_branches DROP COLUMN address_line2_search;
ALTER TABLE bank_branches DROP COLUMN district_search;
-- Bank-name searches read the lower-cased names of branch_banks (003), never a copy on every branch row.
ALTER TABLE bank_branches DROP COLUMN bank_name_search;
CREATE INDEX bank_branches_address_text ON bank_branches (address_line2_text);
CREATE INDEX bank_branches_district_text ON bank_branches (district_text);

-- The state as each file spelled it (MAHARASHTRA, Lagos State), beside the code that is served and searched:
-- an export writes back what was imported. Rows loaded before this keep their code as their spelling.
ALTER TABLE bank_branches ADD COLUMN state_published TEXT;
UPDATE bank_branches SET state_published = state;
ALTER TABLE agents ADD COLUMN state_published TEXT;
UPDATE agents SET state_published = state;

-- The bank filter within a country needs only (country, bank_code): answers are read along
-- bank_branches_by_name. A third of the size of the index it replaces.
DROP INDEX bank_branches_order;
CREATE INDEX bank_branches_bank ON bank_branches (country, bank_code);

-- FILL: after every load replaceDataSet runs the statements from here to the end (TRIGRAM_INDEXES_FILL):
-- every row of each table indexed in rowid order, into indexes emptied with the table.
INSERT INTO agents_fts (agents_fts) VALUES ('delete-all');
INSERT INTO agents_fts (rowid, agent_name) SELECT id, agent_name FROM agents NOT INDEXED ORDER BY id;
INSERT INTO bank_branches_names_fts (bank_branches_names_fts) VALUES ('delete-all');
INSERT INTO bank_branches_names_fts (rowid, branch_name) SELECT id, branch_name FROM bank_branches NOT INDEXED ORDER BY id;
INSERT INTO bank_branches_search_fts (bank_branches_search_fts) VALUES ('delete-all');
INSERT INTO bank_branches_search_fts (rowid, address_line1_search)
  SELECT id, address_line1_search FROM bank_branches NOT INDEXED ORDER BY id;
