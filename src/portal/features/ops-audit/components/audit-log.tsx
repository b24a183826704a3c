import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
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
import { OpsPagination } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { formatTime } from '../../../components/ui/ops-format';
import { CHANGE_KINDS, OPS_ACTIONS, type ChangeKind } from '../../../../contract/ops-changes';
import { RecordLink } from '../../../components/ui/record-link';
import { useAudit } from '../api/get-audit';

/** The ops audit trail, newest first: filter by action, by actor (the name typed) and by a time range. */
export function AuditLog() {
  const { t } = useTranslation();
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState({ pageNumber: 1, pageSize: 50 });
  const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);
  const query = useAudit({
    action: action || undefined,
    actor: actor.trim() || undefined,
    from: iso(from),
    to: iso(to),
    ...page,
  });
  const firstPage = () => setPage((p) => ({ ...p, pageNumber: 1 }));
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          select
          size="small"
          label={t('ops.audit.action')}
          value={action}
          onChange={(event) => {
            setAction(event.target.value);
            firstPage();
          }}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{t('ops.common.any')}</MenuItem>
          {OPS_ACTIONS.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`ops.audit.actions.${value}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t('ops.audit.actor')}
          value={actor}
          onChange={(event) => {
            setActor(event.target.value);
            firstPage();
          }}
          slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
        />
        <TextField
          size="small"
          type="datetime-local"
          label={t('ops.audit.from')}
          value={from}
          onChange={(event) => {
            setFrom(event.target.value);
            firstPage();
          }}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="datetime-local"
          label={t('ops.audit.to')}
          value={to}
          onChange={(event) => {
            setTo(event.target.value);
            firstPage();
          }}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      <OpsQueryState query={query} />
      {query.data?.data.length === 0 && <Typography role="status">{t('ops.audit.none')}</Typography>}
      {query.data && query.data.data.length > 0 && (
        <TableContainer tabIndex={0}>
          <Table size="small" aria-label={t('ops.audit.tableLabel')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('ops.audit.at')}</TableCell>
                <TableCell>{t('ops.audit.actor')}</TableCell>
                <TableCell>{t('ops.audit.action')}</TableCell>
                <TableCell>{t('ops.audit.target')}</TableCell>
                <TableCell>{t('ops.audit.detail')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
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
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {query.data && query.data.pagination.totalItems > 0 && (
        <OpsPagination pagination={query.data.pagination} onChange={(next) => setPage((p) => ({ ...p, ...next }))} />
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
