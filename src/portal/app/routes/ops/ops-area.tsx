import { Suspense, lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import LinearProgress from '@mui/material/LinearProgress';
import { ErrorBoundary } from 'react-error-boundary';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { useSession } from '../../../features/ops-session/api/get-session';
import { OpsSignIn } from '../../../features/ops-session/components/ops-sign-in';
import { i18n } from '../../../lib/i18n';
// The desk's texts, before anything of it renders.
import '../../../lib/ops-i18n';
import { ScreenError } from '../../screen-error';
import { OpsLayout } from './ops-layout';

// The screens behind the sign-in, fetched once an account is signed in.
const OpsScreens = lazy(() => import('./ops-screens'));

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
 * The operations desk, under /ops: its own chunk, layout and screens, never linked from the teller
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
        <Suspense fallback={<LinearProgress aria-label={i18n.t('common.loading')} />}>
          <OpsScreens user={user} />
        </Suspense>
      </ErrorBoundary>
    </OpsLayout>
  );
}
