import { useState } from 'react';
import { useSearch } from 'wouter';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CHANGE_KINDS, type ChangeKind } from '../../../../contract/ops-changes';
import { REPORT_STATUSES } from '../../../../contract/reports';
import { OpsPagination, useOpsPage } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsSelect } from '../../../components/ui/ops-select-filter';
import { useReports, type ReportsParams } from '../api/get-reports';
import { RecordReports } from './record-reports';
import { ReportTable } from './report-table';

const STATUSES = [...REPORT_STATUSES, 'all'] as const;

/**
 * The desk's queue of tellers' reports (/ops/reports), newest first: open ones by default. Each row opens its
 * record's page; an open one is closed with the change or version that fixed it. With `?kind=…&key=…`, one
 * record's reports.
 */
export function ReportQueue() {
  const search = new URLSearchParams(useSearch());
  const kind = search.get('kind');
  const key = search.get('key');
  if (key && (CHANGE_KINDS as readonly string[]).includes(kind ?? ''))
    return <RecordReports kind={kind as ChangeKind} recordKey={key} />;
  return <Queue />;
}

function Queue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('open');
  const { page, firstPage, turn } = useOpsPage(25);
  const params: ReportsParams = { status, ...page };
  const query = useReports(params);
  return (
    <Stack spacing={2}>
      <OpsSelect
        label={t('ops.reports.status')}
        value={status}
        values={STATUSES}
        optionLabel={(value) => t(`ops.reports.statuses.${value}`)}
        onChange={(value) => {
          setStatus(value as (typeof STATUSES)[number]);
          firstPage();
        }}
        sx={{ maxWidth: 240 }}
      />
      <OpsQueryState query={query} />
      {query.data?.data.length === 0 && <Typography role="status">{t('ops.reports.none')}</Typography>}
      {query.data && query.data.data.length > 0 && <ReportTable reports={query.data.data} />}
      {query.data && query.data.pagination.totalItems > 0 && (
        <OpsPagination pagination={query.data.pagination} onChange={turn} />
      )}
    </Stack>
  );
}
