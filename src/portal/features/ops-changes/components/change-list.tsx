import { Link as RouterLink } from 'wouter';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpsRole } from '../../../../contract/ops-auth';
import { CHANGE_FILTERS, type ChangeFilter, type ChangeKind } from '../../../../contract/ops-changes';
import { OpsKindFilter, OpsSelectFilter } from '../../../components/ui/ops-select-filter';
import { OpsPagination, useOpsPage } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsTable, numberColumn } from '../../../components/ui/ops-table';
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
  const { page, filter, turn } = useOpsPage(25);
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
          onChange={filter(setStatus)}
        />
        <OpsKindFilter value={kind} onChange={filter(setKind)} />
      </Stack>
      <OpsQueryState query={query} />
      {query.data && changes.length === 0 && <Typography role="status">{t('ops.changes.none')}</Typography>}
      {changes.length > 0 && (
        <OpsTable
          label={t('ops.changes.tableLabel')}
          columns={[
            ...(['file', 'kind', 'status', 'stagedBy', 'stagedAt'] as const).map((key) => t(`ops.changes.${key}`)),
            ...(['added', 'changed', 'removed'] as const).map((op) => numberColumn(t(`ops.diff.${op}`))),
            numberColumn(t('ops.report.problems')),
          ]}
        >
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
        </OpsTable>
      )}
      {query.data && query.data.pagination.totalItems > 0 && (
        <OpsPagination pagination={query.data.pagination} onChange={turn} />
      )}
    </Stack>
  );
}
