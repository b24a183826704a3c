import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch, useParams } from 'wouter';
import type { OpsRole } from '../../../../contract/ops-auth';
import { Screen } from '../../../components/ui/screen';
import { AccountList } from '../../../features/ops-accounts/components/account-list';
import { AuditLog } from '../../../features/ops-audit/components/audit-log';
import { ChangeList } from '../../../features/ops-changes/components/change-list';
import { ChangeScreen } from '../../../features/ops-changes/components/change-screen';
import { DiffViewer } from '../../../features/ops-changes/components/diff-viewer';
import { UploadForm } from '../../../features/ops-changes/components/upload-form';
import { VersionHistory } from '../../../features/ops-history/components/version-history';
import { QualityReport } from '../../../features/ops-quality/components/quality-report';
import { RecordReports } from '../../../features/ops-reports/components/record-reports';
import { ReportQueue } from '../../../features/ops-reports/components/report-queue';
import { kindOf } from '../../../features/ops-records/components/record-search';
import { RecordScreen } from '../../../features/ops-records/components/record-screen';
import { RecordsScreen } from '../../../features/ops-records/components/records-screen';

// The desk's screens once signed in: a chunk of their own, so the sign-in screen (what every visit to /ops
// loads first) does not download them.

type User = { name: string; roles: OpsRole[] };

export default function OpsScreens({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <Switch>
      <Route path="/inbox">
        <Screen title={t('ops.inbox.title')} purpose={t('ops.inbox.purpose')}>
          <ChangeList defaultStatus="pending" roles={user.roles} />
        </Screen>
      </Route>
      <Route path="/mine">
        <Screen title={t('ops.mine.title')} purpose={t('ops.mine.purpose')}>
          <ChangeList stagedBy={user.name} roles={user.roles} />
        </Screen>
      </Route>
      <Route path="/upload">
        <Screen title={t('ops.upload.title')} purpose={t('ops.upload.purpose')}>
          <UploadForm />
        </Screen>
      </Route>
      <Route path="/changes/:id">
        <Screen title={t('ops.change.title')} purpose={t('ops.change.purpose')}>
          <ChangeRoute user={user} />
        </Screen>
      </Route>
      <Route path="/records">
        <Screen title={t('ops.records.title')} purpose={t('ops.records.purpose')}>
          <RecordsScreen user={user} />
        </Screen>
      </Route>
      <Route path="/records/:kind/:key">
        <Screen title={t('ops.records.recordTitle')} purpose={t('ops.records.recordPurpose')}>
          <RecordRoute user={user} />
        </Screen>
      </Route>
      <Route path="/reports">
        <Screen title={t('ops.reports.title')} purpose={t('ops.reports.purpose')}>
          <ReportQueue />
        </Screen>
      </Route>
      <Route path="/history">
        <Screen title={t('ops.history.title')} purpose={t('ops.history.purpose')}>
          <VersionHistory user={user} diffViewer={DiffViewer} />
        </Screen>
      </Route>
      <Route path="/quality">
        <Screen title={t('ops.quality.title')} purpose={t('ops.quality.purpose')}>
          <QualityReport />
        </Screen>
      </Route>
      <Route path="/audit">
        <Screen title={t('ops.audit.title')} purpose={t('ops.audit.purpose')}>
          <AuditLog />
        </Screen>
      </Route>
      <Route path="/accounts">
        <Screen title={t('ops.accounts.title')} purpose={t('ops.accounts.purpose')}>
          <AccountList user={user} />
        </Screen>
      </Route>
      <Route>
        <Redirect to="/inbox" replace />
      </Route>
    </Switch>
  );
}

function ChangeRoute({ user }: { user: User }) {
  const { id } = useParams<{ id: string }>();
  return <ChangeScreen key={id} id={id} user={user} />;
}

function RecordRoute({ user }: { user: User }) {
  const { kind, key } = useParams<{ kind: string; key: string }>();
  return (
    <RecordScreen
      key={`${kind}/${key}`}
      kind={kindOf(kind)}
      recordKey={key}
      user={user}
      reports={key && <RecordReports kind={kindOf(kind)} recordKey={key} />}
    />
  );
}
