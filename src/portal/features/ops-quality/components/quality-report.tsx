import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsTable } from '../../../components/ui/ops-table';
import { formatNumber, i18n } from '../../../lib/i18n';
import { qualityCsvHref, useQuality } from '../api/get-quality';
import { KIND_OF_RECORD, QUALITY_CSV_COLUMNS, type QualityCheckResult } from '../../../../contract/ops-quality';
import { RecordLink } from '../../../components/ui/record-link';

/** The example table's columns: the CSV's, less the check (the card's own title). */
const COLUMNS = QUALITY_CSV_COLUMNS.filter((column) => column !== 'check');

const checkTitle = (check: string) => {
  const key = `ops.quality.checks.${check}`;
  return i18n.exists(key) ? String(i18n.t(key as never)) : check;
};

/** The published data's quality: each check with its count, a few examples and every finding as CSV. */
export function QualityReport() {
  const { t } = useTranslation();
  const query = useQuality();
  return (
    <Stack spacing={2}>
      <OpsQueryState query={query} />
      {query.data?.checks.map((check) => (
        <CheckCard key={check.check} check={check} />
      ))}
      {query.data && query.data.checks.length === 0 && <Typography role="status">{t('ops.quality.none')}</Typography>}
    </Stack>
  );
}

function CheckCard({ check }: { check: QualityCheckResult }) {
  const { t } = useTranslation();
  const headingId = `quality-${check.check}`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }} data-testid="quality-check">
      <Stack spacing={1}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <Typography id={headingId} component="h2" variant="h6" sx={{ flexGrow: 1 }}>
            {checkTitle(check.check)}
          </Typography>
          <Typography sx={{ fontWeight: 500 }} color={check.count > 0 ? 'warning.dark' : 'success.dark'}>
            {t('ops.quality.count', { count: check.count, formatted: formatNumber(check.count) })}
          </Typography>
          {check.count > 0 && (
            <Button
              size="small"
              variant="outlined"
              startIcon={<DownloadIcon />}
              href={qualityCsvHref(check.check)}
              download={`${check.check}.csv`}
              aria-label={t('ops.quality.downloadOf', { check: checkTitle(check.check) })}
            >
              {t('ops.quality.download')}
            </Button>
          )}
        </Stack>
        {check.examples.length > 0 && (
          <OpsTable
            label={t('ops.quality.examplesOf', { check: checkTitle(check.check) })}
            columns={COLUMNS.map((column) => t(`ops.quality.columns.${column}`))}
          >
            {check.examples.map((example, index) => (
              <TableRow key={index}>
                {COLUMNS.map((column) => (
                  <TableCell key={column} sx={{ overflowWrap: 'anywhere' }}>
                    {column === 'code' && example.recordKey && KIND_OF_RECORD[example.record] ? (
                      <RecordLink
                        kind={KIND_OF_RECORD[example.record]!}
                        recordKey={example.recordKey}
                        text={example.code ?? example.name}
                      />
                    ) : (
                      (example[column] ?? '')
                    )}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </OpsTable>
        )}
      </Stack>
    </Paper>
  );
}
