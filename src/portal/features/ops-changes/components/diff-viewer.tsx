import { useState } from 'react';
import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { DIFF_OPS, type ChangeDetail, type DiffOp, type DiffSummary } from '../../../../contract/ops-changes';
import { OpsPagination, useOpsPage } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsSection } from '../../../components/ui/ops-section';
import { OpsSelectFilter } from '../../../components/ui/ops-select-filter';
import { OpsTable, numberColumn } from '../../../components/ui/ops-table';
import { formatNumber } from '../../../lib/i18n';
import { useDiff, type DiffSource } from '../api/get-diff';
import { DiffRecord } from './diff-record';
import { DiffSearch } from './diff-search';

/** What a difference shows: a change's, or two versions compared (its entries then read from `source`). */
export type DiffSubject = Pick<ChangeDetail, 'id' | 'kind' | 'byBank'> &
  Partial<Pick<ChangeDetail, 'scope' | 'rows'>> & {
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
 * removed and changed by their natural key — added and removed with every field, a change field by field,
 * before → after, a code change as one entry — searched by code or name, filtered and paged, each linked to its
 * record's page. With bad rows in the file it is the difference of the valid rows (said above the counts).
 */

export function DiffViewer({ change, source }: { change: DiffSubject; source?: DiffSource }) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<{ op?: DiffOp; country?: string; bankCode?: string; q?: string }>({});
  const { page, firstPage, turn } = useOpsPage(25);
  const query = useDiff(change.id, { ...filters, ...page }, change.diff !== null, source);
  const setFilter = (next: typeof filters) => {
    setFilters((current) => ({ ...current, ...next }));
    firstPage();
  };
  if (!change.diff) return null;
  const { counts, byCountry } = change.diff;
  return (
    <OpsSection id="diff-title" title={t('ops.diff.title')}>
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
      {change.rows && change.rows.bad > 0 && (
        <Alert severity="warning" data-testid="diff-valid-only">
          {t('ops.diff.validOnly', { valid: formatNumber(change.rows.valid), bad: formatNumber(change.rows.bad) })}
        </Alert>
      )}
      <CountsTable label={t('ops.diff.byCountry')} groups={byCountry} withBank={false} />
      {change.byBank.length > 0 && <CountsTable label={t('ops.diff.byBank')} groups={change.byBank} withBank />}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <DiffSearch onSearch={(q) => setFilter({ q })} />
        <OpsSelectFilter
          label={t('ops.diff.op')}
          value={filters.op ?? ''}
          values={DIFF_OPS}
          optionLabel={(op) => t(`ops.diff.${op}`)}
          onChange={(op) => setFilter({ op: op || undefined })}
          sx={{ minWidth: 160 }}
        />
        <OpsSelectFilter
          label={t('ops.diff.country')}
          value={filters.country ?? ''}
          values={byCountry.map((group) => group.country)}
          optionLabel={(country) => country}
          onChange={(country) => setFilter({ country: country || undefined, bankCode: undefined })}
          sx={{ minWidth: 160 }}
        />
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
          <DiffRecord key={`${entry.op}:${entry.key.join('|')}`} entry={entry} kind={change.kind} />
        ))}
      </Stack>
      {query.data && <OpsPagination pagination={query.data.pagination} onChange={turn} />}
    </OpsSection>
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
  return (
    <OpsTable
      label={label}
      maxHeight={280}
      columns={[
        t('ops.diff.country'),
        withBank && t('ops.diff.bank'),
        ...(['added', 'changed', 'removed'] as const).map((op) => numberColumn(t(`ops.diff.${op}`))),
      ]}
    >
      {groups.map((group) => (
        <TableRow key={`${group.country}:${group.bankCode}`}>
          <TableCell>{group.country}</TableCell>
          {withBank && <TableCell>{group.bankCode}</TableCell>}
          <TableCell align="right">{formatNumber(group.added)}</TableCell>
          <TableCell align="right">{formatNumber(group.changed)}</TableCell>
          <TableCell align="right">{formatNumber(group.removed)}</TableCell>
        </TableRow>
      ))}
    </OpsTable>
  );
}
