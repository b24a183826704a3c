import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import type { ChangeDetail } from '../../../../contract/ops-changes';
import { OpsPagination, useOpsPage } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsSection } from '../../../components/ui/ops-section';
import { OpsTable } from '../../../components/ui/ops-table';
import { formatNumber } from '../../../lib/i18n';
import { problemsCsvHref, useProblems } from '../api/get-problems';
import { useChangeQuality } from '../api/get-change-quality';

/**
 * The validation report: how many rows were read and how many failed, the count of each rule broken (a rule
 * picked filters the list), and every problem — row, column, the value that failed, the importer's message —
 * paged, with all of them downloadable as CSV.
 */
export function ValidationReport({ change }: { change: ChangeDetail }) {
  const { t } = useTranslation();
  const [rule, setRule] = useState<string | undefined>();
  const { page, firstPage, turn } = useOpsPage(25);
  const query = useProblems(change.id, { rule, ...page }, change.problemCount > 0);
  const findings = useChangeQuality(change.id).data?.total ?? 0;
  return (
    <OpsSection id="report-title" title={t('ops.report.title')}>
      <Typography data-testid="report-counts">
        {t('ops.report.counts', {
          read: formatNumber(change.rows.read),
          valid: formatNumber(change.rows.valid),
          bad: formatNumber(change.rows.bad),
          problems: formatNumber(change.problemCount),
        })}
      </Typography>
      {change.problemCount === 0 && findings > 0 && (
        <Typography role="status" color="warning.dark" data-testid="report-findings">
          {t('ops.changeQuality.notClean', { count: findings, formatted: formatNumber(findings) })}
        </Typography>
      )}
      {change.problemCount === 0 ? (
        findings === 0 && (
          <Typography role="status" color="success.main">
            {t('ops.report.clean')}
          </Typography>
        )
      ) : (
        <>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label={t('ops.report.byRule')}>
            {change.ruleCounts.map((count) => (
              <Chip
                key={`${count.rule}:${count.column ?? ''}`}
                label={`${count.rule}${count.column ? ` (${count.column})` : ''}: ${formatNumber(count.count)}`}
                color={rule === count.rule ? 'primary' : 'default'}
                aria-pressed={rule === count.rule}
                onClick={() => {
                  setRule((current) => (current === count.rule ? undefined : count.rule));
                  firstPage();
                }}
              />
            ))}
          </Stack>
          <div>
            <Button
              href={problemsCsvHref(change.id)}
              download={`${change.fileName}-problems.csv`}
              startIcon={<DownloadIcon />}
              variant="outlined"
            >
              {t('ops.report.download')}
            </Button>
          </div>
          <OpsQueryState query={query} />
          {query.data && (
            <OpsTable
              label={t('ops.report.problems')}
              columns={(['row', 'column', 'value', 'message'] as const).map((key) => t(`ops.report.${key}`))}
            >
              {query.data.data.map((problem, index) => (
                <TableRow key={`${problem.row}:${problem.column}:${index}`} data-testid="problem-row">
                  <TableCell>{problem.row ?? t('ops.report.wholeFile')}</TableCell>
                  <TableCell>{problem.column ?? ''}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                    {problem.value ?? ''}
                  </TableCell>
                  <TableCell>{problem.message}</TableCell>
                </TableRow>
              ))}
            </OpsTable>
          )}
          {query.data && <OpsPagination pagination={query.data.pagination} onChange={turn} />}
        </>
      )}
    </OpsSection>
  );
}
