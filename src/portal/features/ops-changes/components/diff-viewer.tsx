import { useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  DIFF_OPS,
  type ChangeDetail,
  type DiffEntry,
  type DiffOp,
  type DiffSummary,
} from '../../../../contract/ops-changes';
import { fieldLabel } from '../../../components/ui/ops-format';
import { OpsPagination } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { formatNumber } from '../../../lib/i18n';
import { useDiff, type DiffSource } from '../api/get-diff';

// Read by screen readers only: "before" and "after" around the two values. Placed at the corner of their
// field (position: relative): at their place in the line they would widen a 360 px page past its edge.
const HIDDEN = {
  position: 'absolute',
  top: 0,
  left: 0,
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
} as const;

const OP_COLOURS = { added: 'success', removed: 'error', changed: 'warning' } as const;

/** What a difference shows: a change's, or two versions compared (its entries then read from `source`). */
export type DiffSubject = Pick<ChangeDetail, 'id' | 'byBank'> &
  Partial<Pick<ChangeDetail, 'scope'>> & {
    diff: Pick<DiffSummary, 'counts' | 'unchanged' | 'byCountry'> | null;
  };

/** What the change may add, change or remove, in words. */
function scopeLine({ scope }: DiffSubject, t: TFunction): string {
  if (!scope) return t('ops.diff.scopeWhole');
  if ('mode' in scope) return t('ops.diff.scopeUpsert');
  return scope.bankCode
    ? t('ops.diff.scopeBank', { country: scope.country, bankCode: scope.bankCode })
    : t('ops.diff.scopeCountry', { country: scope.country });
}

/**
 * What the change would do to the served data: counts per country and per bank, then the records added,
 * removed and changed by their natural key — a change field by field, before → after — filtered and paged.
 */

export function DiffViewer({ change, source }: { change: DiffSubject; source?: DiffSource }) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<{ op?: DiffOp; country?: string; bankCode?: string }>({});
  const [page, setPage] = useState({ pageNumber: 1, pageSize: 25 });
  const query = useDiff(change.id, { ...filters, ...page }, change.diff !== null, source);
  const setFilter = (next: typeof filters) => {
    setFilters((current) => ({ ...current, ...next }));
    setPage((p) => ({ ...p, pageNumber: 1 }));
  };
  if (!change.diff) return null;
  const { counts, byCountry } = change.diff;
  return (
    <Stack spacing={2} component="section" aria-labelledby="diff-title">
      <Typography id="diff-title" component="h2" variant="h6">
        {t('ops.diff.title')}
      </Typography>
      <Typography data-testid="diff-counts">
        {t('ops.diff.summary', {
          added: formatNumber(counts.added),
          changed: formatNumber(counts.changed),
          removed: formatNumber(counts.removed),
          unchanged: formatNumber(change.diff.unchanged),
        })}
      </Typography>
      {change.scope !== undefined && (
        <Typography variant="body2" data-testid="change-scope">
          {scopeLine(change, t)}
        </Typography>
      )}
      <CountsTable label={t('ops.diff.byCountry')} groups={byCountry} withBank={false} />
      {change.byBank.length > 0 && <CountsTable label={t('ops.diff.byBank')} groups={change.byBank} withBank />}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          size="small"
          label={t('ops.diff.op')}
          value={filters.op ?? ''}
          onChange={(event) => setFilter({ op: (event.target.value || undefined) as DiffOp | undefined })}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{t('ops.common.any')}</MenuItem>
          {DIFF_OPS.map((op) => (
            <MenuItem key={op} value={op}>
              {t(`ops.diff.${op}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('ops.diff.country')}
          value={filters.country ?? ''}
          onChange={(event) => setFilter({ country: event.target.value || undefined, bankCode: undefined })}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{t('ops.common.any')}</MenuItem>
          {byCountry.map((group) => (
            <MenuItem key={group.country} value={group.country}>
              {group.country}
            </MenuItem>
          ))}
        </TextField>
        {change.byBank.length > 0 && (
          <TextField
            select
            size="small"
            label={t('ops.diff.bank')}
            value={filters.bankCode ?? ''}
            onChange={(event) => setFilter({ bankCode: event.target.value || undefined })}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="">{t('ops.common.any')}</MenuItem>
            {change.byBank
              .filter((group) => !filters.country || group.country === filters.country)
              .map((group) => (
                <MenuItem key={`${group.country}:${group.bankCode}`} value={group.bankCode ?? ''}>
                  {group.bankCode} ({group.country})
                </MenuItem>
              ))}
          </TextField>
        )}
      </Stack>
      <OpsQueryState query={query} />
      {query.data?.data.length === 0 && <Typography role="status">{t('ops.diff.none')}</Typography>}
      <Stack spacing={1} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={t('ops.diff.records')}>
        {query.data?.data.map((entry) => (
          <DiffRecord key={`${entry.op}:${entry.key.join('|')}`} entry={entry} />
        ))}
      </Stack>
      {query.data && (
        <OpsPagination pagination={query.data.pagination} onChange={(next) => setPage((p) => ({ ...p, ...next }))} />
      )}
    </Stack>
  );
}

function CountsTable({
  label,
  groups,
  withBank,
}: {
  label: string;
  groups: ChangeDetail['byBank'];
  withBank: boolean;
}) {
  const { t } = useTranslation();
  // Focusable: a keyboard can scroll a table wider or taller than the screen (axe, scrollable-region-focusable).
  return (
    <TableContainer tabIndex={0} sx={{ maxHeight: 280 }}>
      <Table size="small" stickyHeader aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>{t('ops.diff.country')}</TableCell>
            {withBank && <TableCell>{t('ops.diff.bank')}</TableCell>}
            <TableCell align="right">{t('ops.diff.added')}</TableCell>
            <TableCell align="right">{t('ops.diff.changed')}</TableCell>
            <TableCell align="right">{t('ops.diff.removed')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {groups.map((group) => (
            <TableRow key={`${group.country}:${group.bankCode}`}>
              <TableCell>{group.country}</TableCell>
              {withBank && <TableCell>{group.bankCode}</TableCell>}
              <TableCell align="right">{formatNumber(group.added)}</TableCell>
              <TableCell align="right">{formatNumber(group.changed)}</TableCell>
              <TableCell align="right">{formatNumber(group.removed)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** One record of the difference: its key, and for a change every field that differs, before → after. */
function DiffRecord({ entry }: { entry: DiffEntry }) {
  const { t } = useTranslation();
  const shown = entry.after ?? entry.before ?? {};
  const title = [shown.branchName ?? shown.agentName ?? shown.headOfficeName, entry.key.join(' · ')]
    .filter(Boolean)
    .join(' — ');
  return (
    <Paper component="li" variant="outlined" sx={{ p: 1.5 }} data-testid={`diff-${entry.op}`}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Chip size="small" color={OP_COLOURS[entry.op]} label={t(`ops.diff.${entry.op}`)} />
        <Typography component="span" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
      </Stack>
      {entry.op === 'changed' && entry.before && entry.after && (
        <Box
          component="dl"
          sx={{ m: 0, mt: 1, display: 'grid', gridTemplateColumns: 'minmax(8em, auto) 1fr', gap: 0.5 }}
        >
          {entry.changedFields.map((field) => (
            <FieldChange key={field} field={field} before={entry.before![field]} after={entry.after![field]} />
          ))}
        </Box>
      )}
    </Paper>
  );
}

function FieldChange({ field, before, after }: { field: string; before?: string | null; after?: string | null }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ fontWeight: 500 }}>
        {fieldLabel(field)}
      </Typography>
      <Typography
        component="dd"
        variant="body2"
        sx={{ m: 0, overflowWrap: 'anywhere', position: 'relative' }}
        data-testid="field-change"
      >
        <Box component="span" sx={HIDDEN}>
          {t('ops.diff.before')}{' '}
        </Box>
        <Box component="del" sx={{ color: 'error.dark' }}>
          {before ?? t('ops.diff.empty')}
        </Box>
        {' → '}
        <Box component="span" sx={HIDDEN}>
          {' '}
          {t('ops.diff.after')}{' '}
        </Box>
        <Box component="ins" sx={{ color: 'success.dark', textDecoration: 'none', fontWeight: 500 }}>
          {after ?? t('ops.diff.empty')}
        </Box>
      </Typography>
    </>
  );
}
