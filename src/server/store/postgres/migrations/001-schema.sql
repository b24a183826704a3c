-- The PostgreSQL store's schema as of 2026-11-28: the 17 earlier migrations in one file (their reasons are in
-- git's history of this folder). A database they made is taken as having this one (migrate.ts); later changes go
-- in 002-…, numbered as the SQLite tree's.

-- Why its details differ from SQLite's:
-- * Text columns are COLLATE "C": SQLite orders TEXT by bytes (BINARY); "C" orders UTF-8 the same way on any
--   server, whatever its default locale.
-- * bank_branches.id and head_offices.position keep the data set's order (SQLite's rowid): the branch id is
--   part of mode-04 agent codes and of the stable order, and readDataSet gives rows back as loaded.
-- * data_version has one row, bumped by every replaceDataSet in the same transaction: every instance sees a new
--   data set within its reference cache's check interval.

CREATE TABLE agents (
    id integer NOT NULL,
    agent_code text NOT NULL COLLATE pg_catalog."C",
    head_office_code text NOT NULL COLLATE pg_catalog."C",
    country text NOT NULL COLLATE pg_catalog."C",
    agent_name text NOT NULL COLLATE pg_catalog."C",
    address_line1 text COLLATE pg_catalog."C",
    address_line2 text COLLATE pg_catalog."C",
    city text COLLATE pg_catalog."C",
    state text COLLATE pg_catalog."C",
    phone_number text COLLATE pg_catalog."C",
    state_published text
);

CREATE TABLE bank_branches (
    id integer NOT NULL,
    country text NOT NULL COLLATE pg_catalog."C",
    bank_code text NOT NULL COLLATE pg_catalog."C",
    bank_name text NOT NULL COLLATE pg_catalog."C",
    routing_number text COLLATE pg_catalog."C",
    branch_name text NOT NULL COLLATE pg_catalog."C",
    address_line1 text COLLATE pg_catalog."C",
    address_line2 text COLLATE pg_catalog."C",
    city text COLLATE pg_catalog."C",
    district text COLLATE pg_catalog."C",
    state text COLLATE pg_catalog."C",
    state_published text
);

CREATE TABLE cities (
    country text NOT NULL COLLATE pg_catalog."C",
    state text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C"
);

CREATE TABLE data_sources (
    kind text NOT NULL COLLATE pg_catalog."C",
    file text NOT NULL COLLATE pg_catalog."C",
    sha256 text NOT NULL COLLATE pg_catalog."C",
    rows integer NOT NULL,
    imported_at text NOT NULL COLLATE pg_catalog."C",
    countries text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C"
);

CREATE TABLE data_version (
    only_row boolean DEFAULT true NOT NULL,
    version bigint NOT NULL,
    CONSTRAINT data_version_only_row_check CHECK (only_row)
);

CREATE TABLE delivery_modes (
    value integer NOT NULL,
    name text NOT NULL COLLATE pg_catalog."C"
);

CREATE TABLE desk_change_comments (
    id bigint NOT NULL,
    change_id text NOT NULL,
    at text NOT NULL,
    author text NOT NULL,
    via text NOT NULL,
    body text NOT NULL
);

CREATE SEQUENCE desk_change_comments_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE desk_change_comments_id_seq OWNED BY desk_change_comments.id;

CREATE TABLE desk_change_quality (
    change_id text NOT NULL,
    report text NOT NULL
);

CREATE TABLE desk_changes (
    id text NOT NULL,
    kind text NOT NULL,
    status text NOT NULL,
    countries text DEFAULT ''::text NOT NULL,
    file_name text NOT NULL,
    sha256 text NOT NULL,
    rows_read integer DEFAULT 0 NOT NULL,
    rows_valid integer DEFAULT 0 NOT NULL,
    rows_bad integer DEFAULT 0 NOT NULL,
    problem_count integer DEFAULT 0 NOT NULL,
    summary text,
    by_bank text,
    rule_counts text,
    base_version text DEFAULT ''::text NOT NULL,
    rollback_of integer,
    staged_by text NOT NULL,
    staged_via text NOT NULL,
    staged_at text NOT NULL,
    updated_at text NOT NULL,
    decided_by text,
    decided_at text,
    comment text,
    progress text,
    failure text,
    lease_owner text,
    lease_until text,
    approval text,
    upload_path text,
    served_rows text,
    scope text
);

CREATE TABLE desk_diff (
    change_id text NOT NULL,
    seq integer NOT NULL,
    op text NOT NULL,
    country text NOT NULL,
    bank_code text,
    key_parts text NOT NULL,
    before_fields text,
    after_fields text,
    changed_fields text DEFAULT ''::text NOT NULL,
    previous_key text,
    search_text text
);

CREATE TABLE desk_files (
    change_id text NOT NULL,
    file_gz bytea NOT NULL
);

CREATE TABLE desk_originals (
    change_id text NOT NULL,
    file_gz bytea NOT NULL
);

CREATE TABLE desk_problems (
    change_id text NOT NULL,
    seq integer NOT NULL,
    row_number integer,
    column_name text,
    value text,
    message text NOT NULL,
    rule text NOT NULL
);

CREATE TABLE desk_record_history (
    kind text NOT NULL,
    record_key text NOT NULL,
    version_id integer NOT NULL,
    change_id text NOT NULL,
    seq integer NOT NULL,
    op text NOT NULL
);

CREATE TABLE desk_snapshots (
    id bigint NOT NULL,
    snapshot_gz bytea NOT NULL,
    change_id text
);

CREATE SEQUENCE desk_snapshots_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE desk_snapshots_id_seq OWNED BY desk_snapshots.id;

CREATE TABLE desk_swaps (
    change_id text NOT NULL,
    data_version text NOT NULL,
    swapped_at text NOT NULL
);

CREATE TABLE desk_versions (
    id integer NOT NULL,
    kind text NOT NULL,
    change_id text,
    staged_by text,
    approved_by text,
    published_at text NOT NULL,
    file_name text NOT NULL,
    sha256 text NOT NULL,
    rows integer NOT NULL,
    countries text DEFAULT ''::text NOT NULL,
    summary text,
    data_version text NOT NULL,
    snapshot_id bigint,
    removal_ledger text
);

ALTER TABLE desk_versions ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME desk_versions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE head_office_banks (
    head_office_code text NOT NULL COLLATE pg_catalog."C",
    bank_code text NOT NULL COLLATE pg_catalog."C",
    "position" integer DEFAULT 0 NOT NULL
);

CREATE TABLE head_office_delivery_modes (
    head_office_code text NOT NULL COLLATE pg_catalog."C",
    delivery_mode integer NOT NULL
);

CREATE TABLE head_offices (
    code text NOT NULL COLLATE pg_catalog."C",
    "position" integer NOT NULL,
    country text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C",
    network_name text NOT NULL COLLATE pg_catalog."C",
    payout_type text NOT NULL COLLATE pg_catalog."C",
    demo_locations integer DEFAULT 0 NOT NULL,
    CONSTRAINT head_offices_payout_type_check CHECK ((payout_type = ANY (ARRAY['N'::text, 'C'::text, 'O'::text])))
);

CREATE TABLE ops_accounts (
    name text NOT NULL,
    roles text NOT NULL,
    password_hash text NOT NULL,
    disabled boolean DEFAULT false NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    created_by text,
    password_set_by text
);

CREATE TABLE ops_audit (
    id integer NOT NULL,
    at text NOT NULL,
    actor text NOT NULL,
    via text NOT NULL,
    action text NOT NULL,
    target text,
    detail text
);

ALTER TABLE ops_audit ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME ops_audit_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE ops_role_grants (
    account text NOT NULL,
    role text NOT NULL,
    granted_by text,
    granted_at bigint
);

CREATE TABLE ops_sessions (
    token_sha256 text NOT NULL,
    account text NOT NULL,
    csrf_token text NOT NULL,
    created_at bigint NOT NULL,
    last_seen_at bigint NOT NULL
);

CREATE TABLE receiving_countries (
    code text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C",
    currency text NOT NULL COLLATE pg_catalog."C"
);

CREATE TABLE states (
    country text NOT NULL COLLATE pg_catalog."C",
    code text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C"
);

CREATE TABLE teller_reports (
    id text NOT NULL,
    kind text NOT NULL,
    record_key text NOT NULL,
    reason text NOT NULL,
    note text NOT NULL,
    correspondent_id text NOT NULL,
    created_at text NOT NULL,
    closed_at text,
    closed_by text,
    fixed_by text,
    close_note text
);

ALTER TABLE ONLY desk_change_comments ALTER COLUMN id SET DEFAULT nextval('desk_change_comments_id_seq'::regclass);

ALTER TABLE ONLY desk_snapshots ALTER COLUMN id SET DEFAULT nextval('desk_snapshots_id_seq'::regclass);

ALTER TABLE ONLY agents
    ADD CONSTRAINT agents_agent_code_key UNIQUE (agent_code);

ALTER TABLE ONLY agents
    ADD CONSTRAINT agents_pkey PRIMARY KEY (id);

ALTER TABLE ONLY bank_branches
    ADD CONSTRAINT bank_branches_pkey PRIMARY KEY (id);

ALTER TABLE ONLY cities
    ADD CONSTRAINT cities_pkey PRIMARY KEY (country, state, name);

ALTER TABLE ONLY data_version
    ADD CONSTRAINT data_version_pkey PRIMARY KEY (only_row);

ALTER TABLE ONLY delivery_modes
    ADD CONSTRAINT delivery_modes_pkey PRIMARY KEY (value);

ALTER TABLE ONLY desk_change_comments
    ADD CONSTRAINT desk_change_comments_pkey PRIMARY KEY (id);

ALTER TABLE ONLY desk_change_quality
    ADD CONSTRAINT desk_change_quality_pkey PRIMARY KEY (change_id);

ALTER TABLE ONLY desk_changes
    ADD CONSTRAINT desk_changes_pkey PRIMARY KEY (id);

ALTER TABLE ONLY desk_diff
    ADD CONSTRAINT desk_diff_pkey PRIMARY KEY (change_id, seq);

ALTER TABLE ONLY desk_files
    ADD CONSTRAINT desk_files_pkey PRIMARY KEY (change_id);

ALTER TABLE ONLY desk_originals
    ADD CONSTRAINT desk_originals_pkey PRIMARY KEY (change_id);

ALTER TABLE ONLY desk_problems
    ADD CONSTRAINT desk_problems_pkey PRIMARY KEY (change_id, seq);

ALTER TABLE ONLY desk_record_history
    ADD CONSTRAINT desk_record_history_pkey PRIMARY KEY (kind, record_key, version_id, seq);

ALTER TABLE ONLY desk_snapshots
    ADD CONSTRAINT desk_snapshots_pkey PRIMARY KEY (id);

ALTER TABLE ONLY desk_swaps
    ADD CONSTRAINT desk_swaps_pkey PRIMARY KEY (change_id);

ALTER TABLE ONLY desk_versions
    ADD CONSTRAINT desk_versions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY head_office_banks
    ADD CONSTRAINT head_office_banks_pkey PRIMARY KEY (head_office_code, bank_code);

ALTER TABLE ONLY head_office_delivery_modes
    ADD CONSTRAINT head_office_delivery_modes_pkey PRIMARY KEY (head_office_code, delivery_mode);

ALTER TABLE ONLY head_offices
    ADD CONSTRAINT head_offices_pkey PRIMARY KEY (code);

ALTER TABLE ONLY ops_accounts
    ADD CONSTRAINT ops_accounts_pkey PRIMARY KEY (name);

ALTER TABLE ONLY ops_audit
    ADD CONSTRAINT ops_audit_pkey PRIMARY KEY (id);

ALTER TABLE ONLY ops_role_grants
    ADD CONSTRAINT ops_role_grants_pkey PRIMARY KEY (account, role);

ALTER TABLE ONLY ops_sessions
    ADD CONSTRAINT ops_sessions_pkey PRIMARY KEY (token_sha256);

ALTER TABLE ONLY receiving_countries
    ADD CONSTRAINT receiving_countries_pkey PRIMARY KEY (code);

ALTER TABLE ONLY states
    ADD CONSTRAINT states_pkey PRIMARY KEY (country, code);

ALTER TABLE ONLY teller_reports
    ADD CONSTRAINT teller_reports_pkey PRIMARY KEY (id);

CREATE INDEX agents_order ON agents USING btree (country, head_office_code, agent_code);

CREATE INDEX agents_state ON agents USING btree (country, state, head_office_code, agent_code);

CREATE INDEX bank_branches_name_order ON bank_branches USING btree (country, bank_name, branch_name, id);

CREATE INDEX bank_branches_order ON bank_branches USING btree (country, bank_code, bank_name, branch_name, id);

CREATE INDEX bank_branches_routing ON bank_branches USING btree (routing_number);

CREATE INDEX bank_branches_state ON bank_branches USING btree (country, state, bank_code);

CREATE INDEX desk_change_comments_by_change ON desk_change_comments USING btree (change_id, id);

CREATE INDEX desk_changes_staged_at ON desk_changes USING btree (staged_at);

CREATE INDEX desk_changes_status ON desk_changes USING btree (status, updated_at);

CREATE INDEX desk_diff_country ON desk_diff USING btree (change_id, country, bank_code, seq);

CREATE INDEX desk_diff_op ON desk_diff USING btree (change_id, op, country, bank_code, seq);

CREATE INDEX desk_problems_rule ON desk_problems USING btree (change_id, rule, seq);

CREATE INDEX desk_snapshots_change ON desk_snapshots USING btree (change_id);

CREATE INDEX desk_versions_kind ON desk_versions USING btree (kind, id);

CREATE INDEX head_offices_country ON head_offices USING btree (country, code);

CREATE INDEX ops_audit_action ON ops_audit USING btree (action, at);

CREATE INDEX ops_audit_actor ON ops_audit USING btree (actor, at);

CREATE INDEX ops_audit_at ON ops_audit USING btree (at);

CREATE INDEX ops_sessions_account ON ops_sessions USING btree (account);

CREATE INDEX teller_reports_queue ON teller_reports USING btree (((closed_at IS NULL)), created_at);

CREATE INDEX teller_reports_record ON teller_reports USING btree (kind, record_key, created_at);

ALTER TABLE ONLY desk_files
    ADD CONSTRAINT desk_files_change_id_fkey FOREIGN KEY (change_id) REFERENCES desk_changes(id);

ALTER TABLE ONLY desk_originals
    ADD CONSTRAINT desk_originals_change_id_fkey FOREIGN KEY (change_id) REFERENCES desk_changes(id);

ALTER TABLE ONLY desk_versions
    ADD CONSTRAINT desk_versions_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES desk_snapshots(id);

ALTER TABLE ONLY ops_role_grants
    ADD CONSTRAINT ops_role_grants_account_fkey FOREIGN KEY (account) REFERENCES ops_accounts(name) ON DELETE CASCADE;

ALTER TABLE ONLY ops_sessions
    ADD CONSTRAINT ops_sessions_account_fkey FOREIGN KEY (account) REFERENCES ops_accounts(name) ON DELETE CASCADE;

INSERT INTO data_version (only_row, version) VALUES (true, 0);
