-- A change's scope, as in SQLite (015-desk-change-scope.sql).
ALTER TABLE desk_changes ADD COLUMN scope TEXT;
