-- Searches are answered by the in-memory search index (src/server/search, issue #11), built from this store's
-- rows per data version. What only the SQL searches read goes: the trigram indexes (003, 005), the distinct
-- lower-cased texts and the branches' pointers to them (005), the lower-cased Address Line 1, the banks table
-- of the bank-name filter, and the index that walked branches in answer order.
DROP TABLE agents_fts;
DROP TABLE bank_branches_names_fts;
DROP TABLE bank_branches_search_fts;
DROP INDEX bank_branches_address_text;
DROP INDEX bank_branches_district_text;
DROP INDEX bank_branches_by_name;
ALTER TABLE bank_branches DROP COLUMN address_line2_text;
ALTER TABLE bank_branches DROP COLUMN district_text;
ALTER TABLE bank_branches DROP COLUMN address_line1_search;
DROP TABLE branch_texts;
DROP TABLE branch_banks;
