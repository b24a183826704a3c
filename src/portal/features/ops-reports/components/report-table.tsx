import { useState } from 'react';
import { Link as RouterLink } from 'wouter';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Report } from '../../../../contract/reports';
import { formatTime } from '../../../components/ui/ops-format';
import { OpsTable } from '../../../components/ui/ops-table';
import { readableKey, recordPath } from '../../../lib/links';
import { CloseReportDialog } from './close-report-dialog';

/**
 * Reports as a table: reference, record (with a link to its page), reason, the teller's note (as text), the
 * correspondent, when; an open one can be closed, a closed one says by whom, when and with what.
 */
export function ReportTable({ reports, showRecord = true }: { reports: Report[]; showRecord?: boolean }) {
  const { t } = useTranslation();
  const [closing, setClosing] = useState<string | null>(null);
  return (
    <>
      <OpsTable
        label={t('ops.reports.tableLabel')}
        containerLabel={t('ops.reports.tableLabel')}
        columns={(['reference', 'record', 'reason', 'note', 'correspondent', 'when', 'actions'] as const).map(
          (key) => (key !== 'record' || showRecord) && t(`ops.reports.${key}`),
        )}
      >
        {reports.map((report) => (
          <TableRow key={report.id} data-testid="report-row" data-report-id={report.id}>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{report.id}</TableCell>
            {showRecord && (
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                <Link
                  component={RouterLink}
                  to={recordPath(report.kind, report.key)}
                  aria-label={t('ops.reports.openRecordOf', { key: report.key })}
                >
                  {t(`ops.kinds.${report.kind}`)} {readableKey(report.key, ' ')}
                </Link>
              </TableCell>
            )}
            <TableCell>{t(`ops.reports.reasons.${report.reason}`)}</TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', minWidth: 160 }}>
              {report.note}
            </TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{report.correspondentId}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTime(report.createdAt)}</TableCell>
            <TableCell>
              {report.status === 'open' ? (
                <Button
                  size="small"
                  variant="outlined"
                  aria-label={t('ops.reports.closeReportOf', { id: report.id })}
                  onClick={() => setClosing(report.id)}
                >
                  {t('ops.reports.closeReport')}
                </Button>
              ) : (
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="report-closed">
                  {t('ops.reports.closedBy', {
                    name: report.closedBy,
                    when: formatTime(report.closedAt),
                    fixedBy: report.fixedBy,
                  })}
                </Typography>
              )}
            </TableCell>
          </TableRow>
        ))}
      </OpsTable>
      {closing && <CloseReportDialog id={closing} onClose={() => setClosing(null)} />}
    </>
  );
}
