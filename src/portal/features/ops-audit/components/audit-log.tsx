import { useState } from 'react';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { OpsPagination, useOpsPage } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsSelectFilter } from '../../../components/ui/ops-select-filter';
import { OpsTable } from '../../../components/ui/ops-table';
import { formatTime } from '../../../components/ui/ops-format';
import { CHANGE_KINDS, OPS_ACTIONS, type ChangeKind } from '../../../../contract/ops-changes';
import { RecordLink } from '../../../components/ui/record-link';
import { useAudit } from '../api/get-audit';

/** The ops audit trail, newest first: filter by action, by actor (the name typed) and by a time range. */
export function AuditLog() {
  const { t } = useTranslation();
  const [action, setAction] = useState<(typeof OPS_ACTIONS)[number] | ''>('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const { page, filter, turn } = useOpsPage(50);
  const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);
  const query = useAudit({
    action: action || undefined,
    actor: actor.trim() || undefined,
    from: iso(from),
    to: iso(to),
    ...page,
  });
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <OpsSelectFilter
          label={t('ops.audit.action')}
          value={action}
          values={OPS_ACTIONS}
          optionLabel={(value) => t(`ops.audit.actions.${value}`)}
          onChange={filter(setAction)}
          sx={{ minWidth: 200 }}
        />
        <TextField
          size="small"
          label={t('ops.audit.actor')}
          value={actor}
          onChange={(event) => filter(setActor)(event.target.value)}
          slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
        />
        {(
          [
            ['from', from, setFrom],
            ['to', to, setTo],
          ] as const
        ).map(([name, value, set]) => (
          <TextField
            key={name}
            size="small"
            type="datetime-local"
            label={t(`ops.audit.${name}`)}
            value={value}
            onChange={(event) => filter(set)(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))}
      </Stack>
      <OpsQueryState query={query} />
      {query.data?.data.length === 0 && <Typography role="status">{t('ops.audit.none')}</Typography>}
      {query.data && query.data.data.length > 0 && (
        <OpsTable
          label={t('ops.audit.tableLabel')}
          columns={(['at', 'actor', 'action', 'target', 'detail'] as const).map((key) => t(`ops.audit.${key}`))}
        >
          {query.data.data.map((entry) => (
            <TableRow key={entry.id} data-testid="audit-row">
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTime(entry.at)}</TableCell>
              <TableCell>
                {entry.actor}
                <Typography variant="caption" component="div" color="text.secondary">
                  {entry.via}
                </Typography>
              </TableCell>
              <TableCell>
                {(OPS_ACTIONS as readonly string[]).includes(entry.action)
                  ? t(`ops.audit.actions.${entry.action as (typeof OPS_ACTIONS)[number]}`)
                  : entry.action}
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                {entry.target ?? ''}
                <AuditRecord detail={entry.detail} />
              </TableCell>
              <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.75rem', overflowWrap: 'anywhere' }}>
                {entry.detail ? JSON.stringify(entry.detail) : ''}
              </TableCell>
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

/** The record an event was about (a teller's report closed: its detail names the record), linked to its page. */
function AuditRecord({ detail }: { detail: Record<string, unknown> | null | undefined }) {
  const kind = detail?.kind;
  const key = detail?.key;
  if (typeof key !== 'string' || !CHANGE_KINDS.includes(kind as ChangeKind)) return null;
  return (
    <>
      {' · '}
      <RecordLink kind={kind as ChangeKind} recordKey={key} text={key} />
    </>
  );
}
