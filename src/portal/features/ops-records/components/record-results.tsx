import { Link as RouterLink } from 'wouter';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ChangeKind } from '../../../../contract/ops-changes';
import type { RecordMatch } from '../../../../contract/ops-records';
import { OpsTable } from '../../../components/ui/ops-table';
import { formatNumber } from '../../../lib/i18n';
import { recordPath } from '../../../lib/links';

/** A page of found records: each opens its record page by its name (a branch may have no code). */
export function RecordResults({ kind, records, total }: { kind: ChangeKind; records: RecordMatch[]; total: number }) {
  const { t } = useTranslation();
  const office = kind === 'partners';
  return (
    <>
      <Typography variant="body2" role="status" data-testid="records-count">
        {t('ops.records.count', { count: total, formatted: formatNumber(total) })}
      </Typography>
      <OpsTable
        label={t('ops.records.tableLabel')}
        columns={[
          t('ops.records.name'),
          t(`ops.records.code.${kind}`),
          !office && t(`ops.records.bank.${kind}`),
          !office && t('columns.city'),
          t('ops.records.country'),
        ]}
      >
        {records.map((record) => (
          <TableRow key={record.key} hover data-testid="record-row">
            <TableCell sx={{ overflowWrap: 'anywhere' }}>
              <Link component={RouterLink} to={recordPath(record.kind, record.key)}>
                {record.name}
              </Link>
            </TableCell>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{record.code ?? '—'}</TableCell>
            {!office && (
              <TableCell>
                {record.bankName}
                <Typography variant="caption" component="div" color="text.secondary">
                  {record.bankCode}
                </Typography>
              </TableCell>
            )}
            {!office && <TableCell>{record.city ?? ''}</TableCell>}
            <TableCell>{record.country}</TableCell>
          </TableRow>
        ))}
      </OpsTable>
    </>
  );
}
