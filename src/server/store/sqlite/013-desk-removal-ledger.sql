-- The removal guard across changes (desk/removal-ledger.ts): each version carries the ledger of the removals
-- counted since the last confirmed ones (JSON), and a staged change the rows served in what it replaces (JSON,
-- per country and for the kind), so its guard is computed again at approval with the removals counted then.
ALTER TABLE desk_versions ADD COLUMN removal_ledger TEXT;
ALTER TABLE desk_changes ADD COLUMN served_rows TEXT;
