import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ChangeKind } from '../../../../contract/ops-changes';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { useReports } from '../api/get-reports';
import { ReportTable } from './report-table';

/**
 * One record's reports from tellers (open and closed, newest first), for the record's page
 * (/ops/records/{kind}/{key}): `recordKey` as GET /v1/ops/records answers it.
 */
export function RecordReports({ kind, recordKey }: { kind: ChangeKind; recordKey: string }) {
  const { t } = useTranslation();
  const query = useReports({ kind, key: recordKey, status: 'all', pageSize: 100 });
  return (
    <Stack spacing={1} component="section" aria-labelledby="record-reports-title" data-testid="record-reports">
      <Typography id="record-reports-title" component="h2" variant="h6">
        {t('ops.reports.recordTitle')}
      </Typography>
      <OpsQueryState query={query} />
      {query.data?.data.length === 0 && <Typography role="status">{t('ops.reports.recordNone')}</Typography>}
      {query.data && query.data.data.length > 0 && <ReportTable reports={query.data.data} showRecord={false} />}
    </Stack>
  );
}
