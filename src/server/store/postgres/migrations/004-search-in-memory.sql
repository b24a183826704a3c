-- Searches are answered by the in-memory search index (src/server/search, issue #11), built from this store's
-- rows per data version. What only the SQL searches read goes: the trigram indexes and the lower-cased copies
-- of the searched texts.
DROP INDEX IF EXISTS head_offices_name_trgm;
DROP INDEX IF EXISTS bank_branches_bank_name_search_trgm;
DROP INDEX IF EXISTS bank_branches_address_line1_search_trgm;
DROP INDEX IF EXISTS bank_branches_address_line2_search_trgm;
DROP INDEX IF EXISTS bank_branches_district_search_trgm;
DROP INDEX IF EXISTS bank_branches_bank_name_trgm;
DROP INDEX IF EXISTS bank_branches_branch_name_trgm;
DROP INDEX IF EXISTS agents_agent_name_trgm;
ALTER TABLE bank_branches
  DROP COLUMN bank_name_search,
  DROP COLUMN address_line1_search,
  DROP COLUMN address_line2_search,
  DROP COLUMN district_search;
