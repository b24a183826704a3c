-- A change's scope (desk/scope.ts): what it may add, change or remove, as JSON ({"country":"IN","bankCode":"ABHY"},
-- {"mode":"upsert"} with the keys a change without a file removes); NULL: what its file replaces (the whole kind,
-- a branch file's countries). Kept on the change: each re-diff and the publish apply it against what is served.
ALTER TABLE desk_changes ADD COLUMN scope TEXT;
