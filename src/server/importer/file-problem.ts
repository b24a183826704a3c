// One fault of an imported file: of a row (its line), of a cell (its column and value), or of the whole file.

export interface FileProblem {
  line: number | null;
  column: string | null;
  reason: string;
  /** The value that failed, as the file gave it (absent or null: no one cell, e.g. a missing column). */
  value?: string | null;
  /** A stable name of the rule that failed ("bank_code.format", "routing_number.duplicate"): counts per rule. */
  rule?: string;
}
