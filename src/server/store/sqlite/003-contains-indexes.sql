-- Indexes that answer the contains searches without scanning every row (issue #7). The searches keep their
-- instr() semantics (001): these only narrow the rows instr() is asked about, so answers stay identical.
-- All are filled by replaceDataSet (external-content FTS tables are rebuilt from their table after a load).

-- Trigram indexes: a phrase query "term" finds every row containing the term (3+ characters). The
-- case_sensitive 1 tokenizer folds nothing, so it is exact for the case-sensitive agent-list searches and,
-- over the *_search columns (already lower-cased in JavaScript), for the case-insensitive branch filters.
CREATE VIRTUAL TABLE agents_fts USING fts5(
  agent_name,
  content = 'agents', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
);
-- Delivery mode 04 agent list: "[Bank Name], [Branch Name]", case-sensitive.
CREATE VIRTUAL TABLE bank_branches_names_fts USING fts5(
  branch_name,
  content = 'bank_branches', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
);
-- Bank branches filters branchLocation, address and district, case-insensitive.
CREATE VIRTUAL TABLE bank_branches_search_fts USING fts5(
  address_line1_search, address_line2_search, district_search,
  content = 'bank_branches', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
);

-- The banks of the branch table, one row per bank name: a bank-name contains search is answered against
-- these few rows, and the branches then read from bank_branches_by_name in answer order.
CREATE TABLE branch_banks (
  country TEXT NOT NULL,
  bank_code TEXT NOT NULL,
  bank_name TEXT NOT NULL,
  bank_name_search TEXT NOT NULL,
  PRIMARY KEY (country, bank_name, bank_code)
) STRICT;

-- Branch answers in their stable order (bank name, branch name, id) within a country, with the bank code
-- so that "is this bank routed to by the head office" is checked without reading the row (deep pages), and
-- Address Line 1, so that the typical search (bank name + branch location) is filtered within the index.
CREATE INDEX bank_branches_by_name ON bank_branches (country, bank_name, branch_name, id, bank_code, address_line1_search);

-- Filling the indexes: for a database migrated with data already in it, now; replaceDataSet runs the statements
-- from here to the end after every load.
INSERT INTO branch_banks SELECT DISTINCT country, bank_code, bank_name, bank_name_search FROM bank_branches;
INSERT INTO agents_fts (agents_fts) VALUES ('rebuild');
INSERT INTO bank_branches_names_fts (bank_branches_names_fts) VALUES ('rebuild');
INSERT INTO bank_branches_search_fts (bank_branches_search_fts) VALUES ('rebuild');
