import type { ReactNode } from 'react';
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

type Section =
  'inbox' | 'mine' | 'upload' | 'change' | 'records' | 'reports' | 'history' | 'quality' | 'audit' | 'accounts';

export default function OpsScreens({ user }: { user: User }) {
  const { t } = useTranslation();
  const text = (section: Section) => [t(`ops.${section}.title`), t(`ops.${section}.purpose`)] as const;
  // A screen at its path, with its title and purpose. Called, not mapped from a list: keyed routes would remount
  // on every switch, while unkeyed ones keep what two screens share (the inbox's and "mine"'s change list).
  const screen = (path: string, [title, purpose]: readonly [string, string], body: ReactNode) => (
    <Route path={path}>
      <Screen title={title} purpose={purpose}>
        {body}
      </Screen>
    </Route>
  );
  return (
    <Switch>
      {screen('/inbox', text('inbox'), <ChangeList defaultStatus="pending" roles={user.roles} />)}
      {screen('/mine', text('mine'), <ChangeList stagedBy={user.name} roles={user.roles} />)}
      {screen('/upload', text('upload'), <UploadForm />)}
      {screen('/changes/:id', text('change'), <ChangeRoute user={user} />)}
      {screen('/records', text('records'), <RecordsScreen user={user} />)}
      {screen(
        '/records/:kind/:key',
        [t('ops.records.recordTitle'), t('ops.records.recordPurpose')],
        <RecordRoute user={user} />,
      )}
      {screen('/reports', text('reports'), <ReportQueue />)}
      {screen('/history', text('history'), <VersionHistory user={user} diffViewer={DiffViewer} />)}
      {screen('/quality', text('quality'), <QualityReport />)}
      {screen('/audit', text('audit'), <AuditLog />)}
      {screen('/accounts', text('accounts'), <AccountList user={user} />)}
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
