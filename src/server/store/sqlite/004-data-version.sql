-- One row, bumped by every replaceDataSet in the same transaction (as in PostgreSQL): dataVersion() reads it,
-- so this process, an import command and every reader agree on when the data set changed, whatever import
-- times the sources keep.
CREATE TABLE data_version (
  only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
  version INTEGER NOT NULL
) STRICT;
INSERT INTO data_version VALUES (1, 0);
