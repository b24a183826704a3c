import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../contract';
import { MAX_PAGE_SIZE } from '../../../contract/constants';
import type { CsvColumn } from './csv';
import { formatNumber } from '../../lib/i18n';
import { ProblemAlert } from './problem-alert';

export type { CsvColumn } from './csv';

/** Most rows one download holds: ten pages of the API's largest page, stated next to the button. */
export const MAX_EXPORT_ROWS = 10_000;

// Excel reads a UTF-8 file without a byte-order mark in the local code page ("Juanacatlán" garbles).
const BOM = '\uFEFF';

/** A file name that says what the file holds: the screen, every filter, and how many rows of how many. */
export function exportFileName(
  screen: string,
  filters: Record<string, string | undefined>,
  rows: number,
  total: number,
  extension: 'csv' | 'xlsx' = 'csv',
): string {
  const parts = [screen, ...Object.entries(filters).flatMap(([name, value]) => (value ? [`${name}-${value}`] : []))];
  parts.push(rows < total ? `first-${rows}-of-${total}` : `all-${total}`);
  return `${parts.join('_').replace(/[^\p{L}\p{N}._-]+/gu, '-')}.${extension}`;
}

/** The fields of a row that a cell shows as it is. */
type CellField<T> = { [K in keyof T]: T[K] extends string | number | null | undefined ? K : never }[keyof T];

/** Columns that each show one field of the row as it is: `[header, field]`, `[header, field, true]` for a code. */
export const fieldColumns = <T,>(columns: [header: string, field: CellField<T>, code?: true][]): CsvColumn<T>[] =>
  columns.map(([header, field, code]) => ({
    header,
    value: (row) => row[field] as string | number | null | undefined,
    ...(code && { code }),
  }));

export interface ExportSource<T> {
  /** How many rows match (what the screen's count says). */
  total: number;
  /** Every matching row, page by page; absent when all rows are already on screen. */
  fetchPage?: (pageNumber: number, pageSize: number) => Promise<Page<T>>;
  rows: T[];
}

/**
 * Every row to export (the whole answer, not only the page on screen), up to MAX_EXPORT_ROWS: the rows on
 * screen when they are all, else fetched page by page at the API's largest page size.
 */
export async function exportRows<T>(source: ExportSource<T>, onProgress: (done: number) => void = () => {}) {
  const count = Math.min(source.total, MAX_EXPORT_ROWS);
  if (!source.fetchPage) return source.rows.slice(0, count);
  const rows: T[] = [];
  for (let pageNumber = 1; rows.length < count; pageNumber++) {
    onProgress(rows.length);
    const page = await source.fetchPage(pageNumber, MAX_PAGE_SIZE);
    const taken = page.data.slice(0, count - rows.length);
    if (taken.length === 0) break;
    rows.push(...taken);
  }
  return rows;
}

/** The downloads offered, the spreadsheet first: each with its button's text and hint. */
const FORMATS = [
  { format: 'xlsx', text: 'exports.xlsx', hint: 'exports.xlsxHint' },
  { format: 'csv', text: 'export.button', hint: 'exports.csvHint' },
] as const;

const CSV_TYPE = 'text/csv;charset=utf-8';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function download(parts: BlobPart[], fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download; the object URL is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Exports every row that matches (not only the page on screen), up to MAX_EXPORT_ROWS: as XLSX for a
 * spreadsheet (`columns`, codes and phones as text cells) or as CSV in the import format (`importColumns`, the
 * headings of docs/import.md: the file imports again unchanged; `columns` where a screen has no import format).
 */
export function ExportCsvButton<T>({
  source,
  columns,
  importColumns = columns,
  screen,
  filters,
}: {
  source: ExportSource<T>;
  columns: CsvColumn<T>[];
  importColumns?: CsvColumn<T>[];
  screen: string;
  filters: Record<string, string | undefined>;
}) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const count = Math.min(source.total, MAX_EXPORT_ROWS);

  const run = async (format: 'csv' | 'xlsx') => {
    setError(null);
    try {
      const rows = await exportRows(source, setProgress);
      setProgress(rows.length);
      const name = exportFileName(screen, filters, count, source.total, format);
      if (format === 'csv') {
        const { toCsv } = await import('./csv');
        download([BOM, toCsv(rows, importColumns)], name, CSV_TYPE);
      } else {
        const { toXlsx } = await import('./xlsx');
        download([await toXlsx(screen, rows, columns)], name, XLSX_TYPE);
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setProgress(null);
    }
  };

  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-end' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="caption" color="text.secondary" data-testid="export-scope">
          {progress !== null
            ? t('export.progress', { done: formatNumber(progress), count: formatNumber(count) })
            : source.total > MAX_EXPORT_ROWS
              ? t('export.limited', { limit: formatNumber(MAX_EXPORT_ROWS), total: formatNumber(source.total) })
              : t('export.all', { count: source.total, formatted: formatNumber(source.total) })}
        </Typography>
        {FORMATS.map(({ format, text, hint }) => (
          <Button
            key={format}
            size="small"
            variant="outlined"
            startIcon={<DownloadIcon />}
            onClick={() => void run(format)}
            disabled={source.total === 0 || progress !== null}
            title={t(hint)}
          >
            {t(text)}
          </Button>
        ))}
      </Stack>
      {error !== null && <ProblemAlert error={error} onRetry={() => void run('csv')} />}
    </Stack>
  );
}
