-- The removal guard across changes, as in SQLite (013-desk-removal-ledger.sql); one schema for both stores.
ALTER TABLE desk_versions ADD COLUMN removal_ledger TEXT;
ALTER TABLE desk_changes ADD COLUMN served_rows TEXT;
