import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch, useParams } from 'wouter';
import LinearProgress from '@mui/material/LinearProgress';
import { ErrorBoundary } from 'react-error-boundary';
import type { OpsRole } from '../../../../contract/ops-auth';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { Screen } from '../../../components/ui/screen';
import { AccountList } from '../../../features/ops-accounts/components/account-list';
import { AuditLog } from '../../../features/ops-audit/components/audit-log';
import { ChangeList } from '../../../features/ops-changes/components/change-list';
import { ChangeScreen } from '../../../features/ops-changes/components/change-screen';
import { UploadForm } from '../../../features/ops-changes/components/upload-form';
import { VersionHistory } from '../../../features/ops-history/components/version-history';
import { QualityReport } from '../../../features/ops-quality/components/quality-report';
import { useSession } from '../../../features/ops-session/api/get-session';
import { OpsSignIn } from '../../../features/ops-session/components/ops-sign-in';
import { i18n } from '../../../lib/i18n';
// The desk's texts, before anything of it renders.
import '../../../lib/ops-i18n';
import { ScreenError } from '../../screen-error';
import { OpsLayout } from './ops-layout';

type User = { name: string; roles: OpsRole[] };

/** The document's title names the desk while it is open (the teller screens' title otherwise). */
function useDeskTitle() {
  const { t } = useTranslation();
  useEffect(() => {
    const title = () => (document.title = `${i18n.t('ops.title')} — ${i18n.t('app.title')}`);
    title();
    i18n.on('languageChanged', title);
    return () => {
      i18n.off('languageChanged', title);
      document.title = i18n.t('app.title');
    };
  }, [t]);
}

/**
 * The operations desk (issue #24), under /ops: its own chunk, layout and screens, never linked from the teller
 * screens. Without a session every path shows the sign-in; once signed in, the same path shows its screen.
 */
export default function OpsArea() {
  useDeskTitle();
  const session = useSession();
  if (session.isPending)
    return (
      <OpsLayout>
        <LinearProgress aria-label={i18n.t('common.loading')} />
      </OpsLayout>
    );
  if (session.error)
    return (
      <OpsLayout>
        <ProblemAlert error={session.error} onRetry={() => void session.refetch()} />
      </OpsLayout>
    );
  const user = session.data ?? undefined;
  if (!user)
    return (
      <OpsLayout>
        <OpsSignIn />
      </OpsLayout>
    );
  return (
    <OpsLayout user={user}>
      <ErrorBoundary FallbackComponent={ScreenError}>
        <OpsScreens user={user} />
      </ErrorBoundary>
    </OpsLayout>
  );
}

function OpsScreens({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <Switch>
      <Route path="/inbox">
        <Screen title={t('ops.inbox.title')} purpose={t('ops.inbox.purpose')}>
          <ChangeList defaultStatus="staged" />
        </Screen>
      </Route>
      <Route path="/mine">
        <Screen title={t('ops.mine.title')} purpose={t('ops.mine.purpose')}>
          <ChangeList stagedBy={user.name} />
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
      <Route path="/history">
        <Screen title={t('ops.history.title')} purpose={t('ops.history.purpose')}>
          <VersionHistory user={user} />
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
