-- Schema of the PostgreSQL store: the same tables as the SQLite store (sqlite/001-initial.sql), so both answer
-- row for row alike. Why the details differ:
-- * Text columns are COLLATE "C": SQLite orders TEXT by bytes (BINARY); "C" orders UTF-8 the same way on any
--   server, whatever its default locale.
-- * Contains searches are LIKE '%…%' with the user's text escaped, served by pg_trgm GIN indexes. The agent
--   list's searches are case-sensitive (on agent_name, bank_name, branch_name). The branch filters are
--   case-insensitive on *_search copies lower-cased in JavaScript, exactly as the SQLite store does, because
--   PostgreSQL's lower() folds by collation ("C" folds ASCII only) and would answer differently.
-- * bank_branches.id and head_offices.position keep the data set's order (SQLite's rowid): the branch id is
--   part of mode-04 agent codes and of the stable order, and readDataSet gives rows back as loaded.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE receiving_countries (
  code text COLLATE "C" PRIMARY KEY,
  name text COLLATE "C" NOT NULL,
  currency text COLLATE "C" NOT NULL
);

CREATE TABLE delivery_modes (
  value integer PRIMARY KEY,
  name text COLLATE "C" NOT NULL
);

CREATE TABLE states (
  country text COLLATE "C" NOT NULL,
  code text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  PRIMARY KEY (country, code)
);

CREATE TABLE cities (
  country text COLLATE "C" NOT NULL,
  state text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  PRIMARY KEY (country, state, name)
);

CREATE TABLE head_offices (
  code text COLLATE "C" PRIMARY KEY,
  position integer NOT NULL,
  country text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  network_name text COLLATE "C" NOT NULL,
  payout_type text COLLATE "C" NOT NULL CHECK (payout_type IN ('N', 'C', 'O')),
  demo_locations integer NOT NULL DEFAULT 0
);
CREATE INDEX head_offices_country ON head_offices (country, code);
CREATE INDEX head_offices_name_trgm ON head_offices USING gin (name gin_trgm_ops);

CREATE TABLE head_office_delivery_modes (
  head_office_code text COLLATE "C" NOT NULL,
  delivery_mode integer NOT NULL,
  PRIMARY KEY (head_office_code, delivery_mode)
);

-- Banks a head office pays into for delivery mode 04 ('*' in partners.csv expanded at load).
CREATE TABLE head_office_banks (
  head_office_code text COLLATE "C" NOT NULL,
  bank_code text COLLATE "C" NOT NULL,
  PRIMARY KEY (head_office_code, bank_code)
);

CREATE TABLE bank_branches (
  id integer PRIMARY KEY,
  country text COLLATE "C" NOT NULL,
  bank_code text COLLATE "C" NOT NULL,
  bank_name text COLLATE "C" NOT NULL,
  routing_number text COLLATE "C",
  branch_name text COLLATE "C" NOT NULL,
  address_line1 text COLLATE "C",
  address_line2 text COLLATE "C",
  city text COLLATE "C",
  district text COLLATE "C",
  state text COLLATE "C",
  bank_name_search text COLLATE "C" NOT NULL,
  address_line1_search text COLLATE "C",
  address_line2_search text COLLATE "C",
  district_search text COLLATE "C"
);
-- The stable order of branch answers, and the bank filter within a country.
CREATE INDEX bank_branches_order ON bank_branches (country, bank_code, bank_name, branch_name, id);
-- A head office paying into most banks of a country: its first page is read in answer order, not sorted.
CREATE INDEX bank_branches_name_order ON bank_branches (country, bank_name, branch_name, id);
CREATE INDEX bank_branches_state ON bank_branches (country, state, bank_code);
CREATE INDEX bank_branches_routing ON bank_branches (routing_number);
-- Case-insensitive branch filters (GET /v1/banks/branches).
CREATE INDEX bank_branches_bank_name_search_trgm ON bank_branches USING gin (bank_name_search gin_trgm_ops);
CREATE INDEX bank_branches_address_line1_search_trgm ON bank_branches USING gin (address_line1_search gin_trgm_ops);
CREATE INDEX bank_branches_address_line2_search_trgm ON bank_branches USING gin (address_line2_search gin_trgm_ops);
CREATE INDEX bank_branches_district_search_trgm ON bank_branches USING gin (district_search gin_trgm_ops);
-- Case-sensitive "[Bank Name], [Branch Name]" search of the mode-04 agent list.
CREATE INDEX bank_branches_bank_name_trgm ON bank_branches USING gin (bank_name gin_trgm_ops);
CREATE INDEX bank_branches_branch_name_trgm ON bank_branches USING gin (branch_name gin_trgm_ops);

CREATE TABLE agents (
  id integer PRIMARY KEY,
  agent_code text COLLATE "C" NOT NULL UNIQUE,
  head_office_code text COLLATE "C" NOT NULL,
  country text COLLATE "C" NOT NULL,
  agent_name text COLLATE "C" NOT NULL,
  address_line1 text COLLATE "C",
  address_line2 text COLLATE "C",
  city text COLLATE "C",
  state text COLLATE "C",
  phone_number text COLLATE "C"
);
CREATE INDEX agents_order ON agents (country, head_office_code, agent_code);
CREATE INDEX agents_state ON agents (country, state, head_office_code, agent_code);
-- Case-sensitive agent-list search on the agent name (the head office name is searched in head_offices).
CREATE INDEX agents_agent_name_trgm ON agents USING gin (agent_name gin_trgm_ops);

-- Which files the served data came from (GET /v1/data-status).
CREATE TABLE data_sources (
  kind text COLLATE "C" NOT NULL,
  file text COLLATE "C" NOT NULL,
  sha256 text COLLATE "C" NOT NULL,
  rows integer NOT NULL,
  imported_at text COLLATE "C" NOT NULL
);

-- One row, bumped by every replaceDataSet in the same transaction: dataVersion() reads it, so every instance
-- sees a new data set within its reference cache's check interval.
CREATE TABLE data_version (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  version bigint NOT NULL
);
INSERT INTO data_version (version) VALUES (0);
