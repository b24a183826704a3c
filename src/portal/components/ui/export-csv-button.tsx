import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import { stringify } from 'csv-stringify/browser/esm/sync';

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

export function toCsv<T>(rows: T[], columns: CsvColumn<T>[]): string {
  return stringify([columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => c.value(row) ?? ''))]);
}

/** Exports the results on screen as CSV for operations staff. */
export function ExportCsvButton<T>({ rows, columns, fileName }: { rows: T[]; columns: CsvColumn<T>[]; fileName: string }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([toCsv(rows, columns)], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.click();
    // The click has started the download; the object URL is not needed after this task.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={download} disabled={rows.length === 0}>
      Export CSV
    </Button>
  );
}
