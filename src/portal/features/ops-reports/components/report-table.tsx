import { useState } from 'react';
import { Link as RouterLink } from 'wouter';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Report } from '../../../../contract/reports';
import { formatTime } from '../../../components/ui/ops-format';
import { CloseReportDialog } from './close-report-dialog';

/** The desk's record page of a report's record (another screen of the desk, under /ops). */
export const recordHref = (report: Pick<Report, 'kind' | 'key'>) =>
  `/records/${report.kind}/${encodeURIComponent(report.key)}`;

/**
 * Reports as a table: reference, record (with a link to its page), reason, the teller's note (as text), the
 * correspondent, when; an open one can be closed, a closed one says by whom, when and with what.
 */
export function ReportTable({ reports, showRecord = true }: { reports: Report[]; showRecord?: boolean }) {
  const { t } = useTranslation();
  const [closing, setClosing] = useState<string | null>(null);
  return (
    <>
      <TableContainer tabIndex={0} aria-label={t('ops.reports.tableLabel')}>
        <Table size="small" aria-label={t('ops.reports.tableLabel')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('ops.reports.reference')}</TableCell>
              {showRecord && <TableCell>{t('ops.reports.record')}</TableCell>}
              <TableCell>{t('ops.reports.reason')}</TableCell>
              <TableCell>{t('ops.reports.note')}</TableCell>
              <TableCell>{t('ops.reports.correspondent')}</TableCell>
              <TableCell>{t('ops.reports.when')}</TableCell>
              <TableCell>{t('ops.reports.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {reports.map((report) => (
              <TableRow key={report.id} data-testid="report-row" data-report-id={report.id}>
                <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{report.id}</TableCell>
                {showRecord && (
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <Link
                      component={RouterLink}
                      to={recordHref(report)}
                      aria-label={t('ops.reports.openRecordOf', { key: report.key })}
                    >
                      {t(`ops.kinds.${report.kind}`)} {decodeKey(report.key)}
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
          </TableBody>
        </Table>
      </TableContainer>
      {closing && <CloseReportDialog id={closing} onClose={() => setClosing(null)} />}
    </>
  );
}

/** A record key as read: its parts, decoded, joined with a space (`IN ABHY0065001`). */
function decodeKey(key: string): string {
  try {
    return key
      .split('~')
      .map((part) => decodeURIComponent(part))
      .join(' ');
  } catch {
    return key;
  }
}
