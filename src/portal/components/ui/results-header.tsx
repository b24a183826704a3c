import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ExportCsvButton, type CsvColumn } from './export-csv-button';

/** Above every result table: the count, announced to screen readers, and the CSV export of what is shown. */
export function ResultsHeader<T>({ total, noun, rows, columns, fileName }: {
  total: number;
  noun: string;
  rows: T[];
  columns: CsvColumn<T>[];
  fileName: string;
}) {
  return (
    <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
      <Typography role="status" data-testid="result-total">
        {total.toLocaleString('en')} {noun}
      </Typography>
      <ExportCsvButton rows={rows} columns={columns} fileName={fileName} />
    </Stack>
  );
}
