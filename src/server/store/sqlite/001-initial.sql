-- Schema of the embedded store. Text searches are "contains" operations done with instr(), so user text is
-- never a pattern: %, _, *, ?, [ match literally. *_search columns hold lower-cased copies (lower-cased in
-- JavaScript, which folds all of Unicode, not only ASCII) for the case-insensitive branch filters.

CREATE TABLE receiving_countries (
  code TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  currency TEXT NOT NULL
) STRICT;

CREATE TABLE delivery_modes (
  value INTEGER PRIMARY KEY,
  name TEXT NOT NULL
) STRICT;

CREATE TABLE states (
  country TEXT NOT NULL,
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (country, code)
) STRICT;

CREATE TABLE cities (
  country TEXT NOT NULL,
  state TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (country, state, name)
) STRICT;

CREATE TABLE head_offices (
  code TEXT PRIMARY KEY,
  country TEXT NOT NULL,
  name TEXT NOT NULL,
  network_name TEXT NOT NULL,
  payout_type TEXT NOT NULL CHECK (payout_type IN ('N', 'C', 'O')),
  demo_locations INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX head_offices_country ON head_offices (country, code);

CREATE TABLE head_office_delivery_modes (
  head_office_code TEXT NOT NULL,
  delivery_mode INTEGER NOT NULL,
  PRIMARY KEY (head_office_code, delivery_mode)
) STRICT;

-- Banks a head office pays into for delivery mode 04 ('*' in partners.csv expanded at load).
CREATE TABLE head_office_banks (
  head_office_code TEXT NOT NULL,
  bank_code TEXT NOT NULL,
  PRIMARY KEY (head_office_code, bank_code)
) STRICT;

CREATE TABLE bank_branches (
  id INTEGER PRIMARY KEY,
  country TEXT NOT NULL,
  bank_code TEXT NOT NULL,
  bank_name TEXT NOT NULL,
  routing_number TEXT,
  branch_name TEXT NOT NULL,
  address_line1 TEXT,
  address_line2 TEXT,
  city TEXT,
  district TEXT,
  state TEXT,
  bank_name_search TEXT NOT NULL,
  address_line1_search TEXT,
  address_line2_search TEXT,
  district_search TEXT
) STRICT;
-- The stable order of branch answers, and the bank filter within a country.
CREATE INDEX bank_branches_order ON bank_branches (country, bank_code, bank_name, branch_name, id);
CREATE INDEX bank_branches_routing ON bank_branches (routing_number);

CREATE TABLE agents (
  id INTEGER PRIMARY KEY,
  agent_code TEXT NOT NULL UNIQUE,
  head_office_code TEXT NOT NULL,
  country TEXT NOT NULL,
  agent_name TEXT NOT NULL,
  address_line1 TEXT,
  address_line2 TEXT,
  city TEXT,
  state TEXT,
  phone_number TEXT
) STRICT;
CREATE INDEX agents_order ON agents (country, head_office_code, agent_code);
CREATE INDEX agents_state ON agents (country, state, head_office_code, agent_code);

-- Which files the served data came from (GET /v1/data-status).
CREATE TABLE data_sources (
  kind TEXT NOT NULL,
  file TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  rows INTEGER NOT NULL,
  imported_at TEXT NOT NULL
) STRICT;
