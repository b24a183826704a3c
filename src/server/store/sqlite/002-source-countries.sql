-- Branch files are imported per receiving country: each source records the countries whose rows it
-- supplies, so importing IN.csv retires the previous IN source and leaves BD's and NG's listed.
ALTER TABLE data_sources ADD COLUMN countries TEXT NOT NULL DEFAULT '';
-- Stores seeded before this migration: the seed's branch files are named after their country.
UPDATE data_sources SET countries = upper(substr(file, 1, 2)) WHERE kind = 'branches' AND file GLOB '[A-Za-z][A-Za-z].csv';
