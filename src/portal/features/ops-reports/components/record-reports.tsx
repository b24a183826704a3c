import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ChangeKind } from '../../../../contract/ops-changes';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsSection } from '../../../components/ui/ops-section';
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
    <OpsSection id="record-reports-title" title={t('ops.reports.recordTitle')} spacing={1} testId="record-reports">
      <OpsQueryState query={query} />
      {query.data?.data.length === 0 && <Typography role="status">{t('ops.reports.recordNone')}</Typography>}
      {query.data && query.data.data.length > 0 && <ReportTable reports={query.data.data} showRecord={false} />}
    </OpsSection>
  );
}
