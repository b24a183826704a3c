import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ExportCsvButton, type CsvColumn, type ExportSource } from './export-csv-button';

/** "1 branch", "2 branches": the count with the noun in the right number. */
export function countOf(total: number, noun: { one: string; other: string }): string {
  return `${total.toLocaleString('en')} ${new Intl.PluralRules('en').select(total) === 'one' ? noun.one : noun.other}`;
}

/** Above every result list: the count, announced to screen readers, and the CSV export of every matching row. */
export function ResultsHeader<T>({
  noun,
  source,
  columns,
  screen,
  filters,
}: {
  noun: { one: string; other: string };
  source: ExportSource<T>;
  columns: CsvColumn<T>[];
  screen: string;
  filters: Record<string, string | undefined>;
}) {
  return (
    <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
      <Typography role="status" data-testid="result-total">
        {countOf(source.total, noun)}
      </Typography>
      <ExportCsvButton source={source} columns={columns} screen={screen} filters={filters} />
    </Stack>
  );
}
