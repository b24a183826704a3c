import { z } from 'zod';

// The operations desk's file contract: which layout an uploaded file has, how its columns map onto
// the fields of a kind, and the validation report's problems (row, column, value, message, rule). The server's
// readers (server/importer/layouts.ts, xlsx.ts) produce these; the desk's routes and the portal's column-mapping
// screen read them. Plain schemas: the portal bundles this file.

export const opsFileKind = z.enum(['branches', 'partners', 'agents']).meta({
  description: 'What the file holds: bank branches (per country), partners (head offices) or agents.',
});
export type OpsFileKind = z.infer<typeof opsFileKind>;

export const opsFileFormat = z.enum(['csv', 'json', 'xlsx']).meta({
  description: 'csv and json: the import formats of docs/import.md; xlsx: the first worksheet, first row the header.',
});
export type OpsFileFormat = z.infer<typeof opsFileFormat>;

/** The public IFSC list as Indian operators download it (RBI / razorpay's IFSC.csv): its header, in order. */
export const IFSC_PUBLIC_COLUMNS = [
  'BANK',
  'IFSC',
  'BRANCH',
  'CENTRE',
  'DISTRICT',
  'STATE',
  'ADDRESS',
  'CONTACT',
  'IMPS',
  'RTGS',
  'CITY',
  'ISO3166',
  'NEFT',
  'MICR',
  'UPI',
  'SWIFT',
] as const;

export const opsFileLayout = z.enum(['import', 'ifsc-public', 'mapped']).meta({
  description:
    "import: the header is the kind's import format (docs/import.md); ifsc-public: the public IFSC list (branches of India, header BANK,IFSC,…,SWIFT); mapped: any other header, read through a column mapping the maker gives.",
});
export type OpsFileLayout = z.infer<typeof opsFileLayout>;

/** A file column's heading → the kind's field (an import column, e.g. `bank_code`); unmapped columns are ignored. */
export const columnMapping = z
  .record(z.string().min(1).max(200), z.string().min(1).max(64))
  .refine((mapping) => Object.keys(mapping).length <= 200, 'at most 200 columns')
  .meta({
    description:
      'File heading → field of the kind (an import column such as "bank_code"). Headings not listed are ignored; a field may be given by one heading only.',
    example: { 'Bank Code': 'bank_code', 'Branch Name': 'branch_name' },
  });
export type ColumnMapping = z.infer<typeof columnMapping>;

/** How a file is to be read: its layout and, for `mapped`, the mapping; `country` fills a branch file's
 *  missing country column (a mapped branch file of one country). */
export const fileReading = z.strictObject({
  layout: opsFileLayout,
  mapping: columnMapping.optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in upper case')
    .optional()
    .meta({ description: 'Branch files: the receiving country of every row when no column gives it.' }),
});
export type FileReading = z.infer<typeof fileReading>;

/** What the server sees in a file's first rows: the layout it detected, the header and a suggested mapping. */
export const detectedLayout = z.object({
  kind: opsFileKind,
  format: opsFileFormat,
  layout: opsFileLayout,
  /** The first row's cells as written (trimmed). */
  header: z.array(z.string()),
  /** The kind's fields, in file order, and which of them a row must fill. */
  fields: z.array(z.object({ name: z.string(), required: z.boolean() })),
  /** Heading → field, for headings whose name matches a field (case, spaces, punctuation aside). */
  suggestedMapping: columnMapping,
  /** Up to 5 data rows after the header, cells as text, for the mapping screen's preview. */
  sample: z.array(z.array(z.string())),
  /** Fields no heading maps to yet that a row must fill. */
  missingRequired: z.array(z.string()),
});
export type DetectedLayout = z.infer<typeof detectedLayout>;

/** One fault of one row (or of the file: row null). Every fault of a row is reported, not only the first. */
export const fileProblem = z.object({
  row: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'The line (CSV), element line (JSON) or row (XLSX); null: the file as a whole.' }),
  column: z.string().nullable(),
  value: z.string().nullable().meta({ description: 'The value that failed, as the file gave it (null: no one cell).' }),
  message: z.string(),
  rule: z
    .string()
    .meta({ description: 'Stable rule name, e.g. "required", "bank_code.format", "routing_number.duplicate".' }),
});
export type OpsFileProblem = z.infer<typeof fileProblem>;

export const ruleCount = z.object({ rule: z.string(), count: z.number().int() });
export type RuleCount = z.infer<typeof ruleCount>;

/** Limits on what a file may hold (server configuration; the portal shows them). */
export const XLSX_DEFAULT_MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
