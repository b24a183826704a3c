-- Mirrors SQLite's 002: branch files are imported per receiving country, so each source records the
-- countries whose rows it supplies; and a head office's banks keep the order they were loaded in, so an
-- export writes routes_to_banks as the partners file listed them.
ALTER TABLE data_sources ADD COLUMN countries text COLLATE "C" NOT NULL DEFAULT '';
UPDATE data_sources SET countries = upper(substr(file, 1, 2)) WHERE kind = 'branches' AND file ~ '^[A-Za-z]{2}\.csv$';
ALTER TABLE head_office_banks ADD COLUMN position integer NOT NULL DEFAULT 0;
