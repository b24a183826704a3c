import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/i18n';
import { ExportCsvButton, type CsvColumn, type ExportSource } from './export-csv-button';

/**
 * What the count counts: its message in the locale files, with the noun in the right number ("1 branch", "2 branches").
 */
export type CountedNoun = 'results.agents' | 'results.branches' | 'results.payoutNetworks';

/** Above every result list: the count, announced to screen readers, and the XLSX and CSV exports of every row. */
export function ResultsHeader<T>({
  noun,
  source,
  columns,
  importColumns,
  screen,
  filters,
  countText,
}: {
  noun: CountedNoun;
  source: ExportSource<T>;
  columns: CsvColumn<T>[];
  /** The CSV's columns: the import format of docs/import.md (defaults to `columns`). */
  importColumns?: CsvColumn<T>[];
  screen: string;
  filters: Record<string, string | undefined>;
  /** A count that says more than "N <noun>" (mode-04 agent rows are bank branches through head offices). */
  countText?: (total: number) => string;
}) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
      <Typography role="status" data-testid="result-total">
        {countText ? countText(source.total) : t(noun, { count: source.total, formatted: formatNumber(source.total) })}
      </Typography>
      <ExportCsvButton
        source={source}
        columns={columns}
        importColumns={importColumns}
        screen={screen}
        filters={filters}
      />
    </Stack>
  );
}
