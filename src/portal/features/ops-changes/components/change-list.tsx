import { Link as RouterLink } from 'wouter';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpsRole } from '../../../../contract/ops-auth';
import { CHANGE_FILTERS, CHANGE_KINDS, type ChangeFilter, type ChangeKind } from '../../../../contract/ops-changes';
import { OpsSelectFilter } from '../../../components/ui/ops-select-filter';
import { OpsPagination } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { formatTime } from '../../../components/ui/ops-format';
import { formatNumber } from '../../../lib/i18n';
import { useChanges } from '../api/get-changes';
import { ChangeStatusCell } from './change-flow-status';

/**
 * The changes a desk user acts on: the checker's inbox (staged changes of everyone) or the maker's own
 * changes (every status), newest first, filterable by status and kind.
 */
export function ChangeList({
  stagedBy,
  defaultStatus,
  roles = [],
}: {
  stagedBy?: string;
  defaultStatus?: ChangeFilter;
  /** The signed-in user's roles (a maker or checker may compare a stale change again). */
  roles?: readonly OpsRole[];
}) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ChangeFilter | ''>(defaultStatus ?? '');
  const [kind, setKind] = useState<ChangeKind | ''>('');
  const [page, setPage] = useState({ pageNumber: 1, pageSize: 25 });
  const query = useChanges({ stagedBy, status: status || undefined, kind: kind || undefined, ...page });
  const changes = query.data?.data ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <OpsSelectFilter
          label={t('ops.changes.status')}
          value={status}
          values={CHANGE_FILTERS}
          optionLabel={(value) => t(`ops.status.${value}`)}
          onChange={(value) => {
            setStatus(value);
            setPage((p) => ({ ...p, pageNumber: 1 }));
          }}
        />
        <OpsSelectFilter
          label={t('ops.changes.kind')}
          value={kind}
          values={CHANGE_KINDS}
          optionLabel={(value) => t(`ops.kinds.${value}`)}
          onChange={(value) => {
            setKind(value);
            setPage((p) => ({ ...p, pageNumber: 1 }));
          }}
        />
      </Stack>
      <OpsQueryState query={query} />
      {query.data && changes.length === 0 && <Typography role="status">{t('ops.changes.none')}</Typography>}
      {changes.length > 0 && (
        <TableContainer tabIndex={0}>
          <Table size="small" aria-label={t('ops.changes.tableLabel')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('ops.changes.file')}</TableCell>
                <TableCell>{t('ops.changes.kind')}</TableCell>
                <TableCell>{t('ops.changes.status')}</TableCell>
                <TableCell>{t('ops.changes.stagedBy')}</TableCell>
                <TableCell>{t('ops.changes.stagedAt')}</TableCell>
                <TableCell align="right">{t('ops.diff.added')}</TableCell>
                <TableCell align="right">{t('ops.diff.changed')}</TableCell>
                <TableCell align="right">{t('ops.diff.removed')}</TableCell>
                <TableCell align="right">{t('ops.report.problems')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.map((change) => (
                <TableRow key={change.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/changes/${change.id}`}>
                      {change.fileName}
                    </Link>
                    <Typography variant="caption" component="div" color="text.secondary">
                      {change.countries.join(', ')}
                    </Typography>
                  </TableCell>
                  <TableCell>{t(`ops.kinds.${change.kind}`)}</TableCell>
                  <TableCell>
                    <ChangeStatusCell change={change} roles={roles} />
                  </TableCell>
                  <TableCell>{change.stagedBy}</TableCell>
                  <TableCell>{formatTime(change.stagedAt)}</TableCell>
                  <TableCell align="right">{change.diff ? formatNumber(change.diff.counts.added) : ''}</TableCell>
                  <TableCell align="right">{change.diff ? formatNumber(change.diff.counts.changed) : ''}</TableCell>
                  <TableCell align="right">{change.diff ? formatNumber(change.diff.counts.removed) : ''}</TableCell>
                  <TableCell align="right">{formatNumber(change.problemCount)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {query.data && query.data.pagination.totalItems > 0 && (
        <OpsPagination
          pagination={query.data.pagination}
          onChange={(change) => setPage((p) => ({ ...p, ...change }))}
        />
      )}
    </Stack>
  );
}
