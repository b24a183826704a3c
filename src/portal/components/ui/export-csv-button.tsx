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
): string {
  const parts = [screen, ...Object.entries(filters).flatMap(([name, value]) => (value ? [`${name}-${value}`] : []))];
  parts.push(rows < total ? `first-${rows}-of-${total}` : `all-${total}`);
  return `${parts.join('_').replace(/[^\p{L}\p{N}._-]+/gu, '-')}.csv`;
}

export interface ExportSource<T> {
  /** How many rows match (what the screen's count says). */
  total: number;
  /** Every matching row, page by page; absent when all rows are already on screen. */
  fetchPage?: (pageNumber: number, pageSize: number) => Promise<Page<T>>;
  rows: T[];
}

function download(parts: string[], fileName: string) {
  const url = URL.createObjectURL(new Blob([BOM, ...parts], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download; the object URL is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Exports every row that matches (not only the page on screen), up to MAX_EXPORT_ROWS, as a CSV download. */
export function ExportCsvButton<T>({
  source,
  columns,
  screen,
  filters,
}: {
  source: ExportSource<T>;
  columns: CsvColumn<T>[];
  screen: string;
  filters: Record<string, string | undefined>;
}) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const count = Math.min(source.total, MAX_EXPORT_ROWS);

  const run = async () => {
    setError(null);
    try {
      const { toCsv } = await import('./csv');
      const parts = [toCsv([], columns)];
      if (!source.fetchPage) parts.push(toCsv(source.rows, columns, false));
      else {
        // Page by page, each page turned into CSV text as it arrives, so the whole result is never held twice.
        let written = 0;
        for (let pageNumber = 1; written < count; pageNumber++) {
          setProgress(written);
          const page = await source.fetchPage(pageNumber, MAX_PAGE_SIZE);
          const rows = page.data.slice(0, count - written);
          if (rows.length === 0) break;
          parts.push(toCsv(rows, columns, false));
          written += rows.length;
        }
      }
      download(parts, exportFileName(screen, filters, count, source.total));
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
        <Button
          size="small"
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => void run()}
          disabled={source.total === 0 || progress !== null}
        >
          {t('export.button')}
        </Button>
      </Stack>
      {error !== null && <ProblemAlert error={error} onRetry={() => void run()} />}
    </Stack>
  );
}
