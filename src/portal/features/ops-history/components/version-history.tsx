import { useState } from 'react';
import { Link as RouterLink, useLocation } from 'wouter';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { OpsKindFilter } from '../../../components/ui/ops-select-filter';
import { type OpsRole } from '../../../../contract/ops-auth';
import { type ChangeKind, type VersionSummary } from '../../../../contract/ops-changes';
import { OpsPagination, useOpsPage } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsTable, numberColumn } from '../../../components/ui/ops-table';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { formatTime } from '../../../components/ui/ops-format';
import { formatNumber } from '../../../lib/i18n';
import { useVersions } from '../api/get-versions';
import { useStageRollback } from '../api/stage-rollback';
import { VersionCompare, type DiffViewerComponent } from './version-compare';
import { VersionDownloads } from './version-downloads';

/**
 * Every published version, newest first: who staged and approved it, when, the file and its SHA-256, the rows
 * served after it and what it changed. A checker rolls back to a kept version: that stages a change (diffed,
 * then approved by another checker), it does not publish anything by itself.
 */
export function VersionHistory({
  user,
  diffViewer,
}: {
  user: { name: string; roles: OpsRole[] };
  /** The desk's diff viewer, for two versions compared. */
  diffViewer: DiffViewerComponent;
}) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [kind, setKind] = useState<ChangeKind | ''>('');
  const { page, filter, turn } = useOpsPage(25);
  const query = useVersions({ kind: kind || undefined, ...page });
  // The kept versions to compare, whatever page the table shows (a kind keeps DESK_VERSIONS_KEPT of them).
  const comparable = useVersions({ kind: kind || undefined, pageNumber: 1, pageSize: 100 });
  const rollback = useStageRollback();
  const canRollBack = user.roles.includes('checker');
  return (
    <Stack spacing={2}>
      <OpsKindFilter value={kind} onChange={filter(setKind)} sx={{ maxWidth: 220 }} />
      {rollback.error && <ProblemAlert error={rollback.error} />}
      <OpsQueryState query={query} />
      {query.data?.data.length === 0 && <Typography role="status">{t('ops.history.none')}</Typography>}
      {query.data && query.data.data.length > 0 && (
        <OpsTable
          label={t('ops.history.tableLabel')}
          columns={[
            t('ops.history.version'),
            t('ops.changes.kind'),
            t('ops.history.published'),
            t('ops.history.people'),
            t('ops.changes.file'),
            numberColumn(t('ops.history.rows')),
            t('ops.history.diff'),
            {
              label: (
                <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                  {t('ops.history.actions')}
                </span>
              ),
            },
          ]}
        >
          {query.data.data.map((version) => (
            <VersionRow
              key={version.id}
              version={version}
              canRollBack={canRollBack}
              pending={rollback.isPending && rollback.variables === version.id}
              onRollBack={() =>
                rollback.mutate(version.id, { onSuccess: (change) => navigate(`/changes/${change.id}`) })
              }
            />
          ))}
        </OpsTable>
      )}
      {query.data && query.data.pagination.totalItems > 0 && (
        <OpsPagination pagination={query.data.pagination} onChange={turn} />
      )}
      <VersionCompare versions={comparable.data?.data ?? []} diffViewer={diffViewer} />
    </Stack>
  );
}

function VersionRow({
  version,
  canRollBack,
  pending,
  onRollBack,
}: {
  version: VersionSummary;
  canRollBack: boolean;
  pending: boolean;
  onRollBack: () => void;
}) {
  const { t } = useTranslation();
  const counts = version.diff?.counts;
  return (
    <TableRow data-testid="version-row">
      <TableCell>{version.id}</TableCell>
      <TableCell>{t(`ops.kinds.${version.kind}`)}</TableCell>
      <TableCell>{formatTime(version.publishedAt)}</TableCell>
      <TableCell>
        {version.changeId === null
          ? t('ops.history.baseline')
          : t('ops.history.stagedApproved', { staged: version.stagedBy ?? '—', approved: version.approvedBy ?? '—' })}
      </TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>
        {version.changeId ? (
          <Link component={RouterLink} to={`/changes/${version.changeId}`}>
            {version.fileName}
          </Link>
        ) : (
          version.fileName
        )}
        {version.rollbackOf !== null && (
          <Typography variant="body2" component="div" data-testid="rollback-of">
            {t('ops.history.rollbackOf', { version: version.rollbackOf })}
          </Typography>
        )}
        <Typography variant="caption" component="div" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
          SHA-256 <span title={version.sha256}>{version.sha256.slice(0, 16)}…</span>
        </Typography>
      </TableCell>
      <TableCell align="right">{formatNumber(version.rows)}</TableCell>
      <TableCell>
        {counts
          ? t('ops.history.counts', {
              added: formatNumber(counts.added),
              changed: formatNumber(counts.changed),
              removed: formatNumber(counts.removed),
            })
          : '—'}
      </TableCell>
      <TableCell>
        <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
          <VersionDownloads version={version} />
          {canRollBack && version.restorable && (
            <Button size="small" variant="outlined" loading={pending} onClick={onRollBack}>
              {t('ops.history.rollBack', { version: version.id })}
            </Button>
          )}
        </Stack>
      </TableCell>
    </TableRow>
  );
}
