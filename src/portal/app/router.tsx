import { Suspense, lazy } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from 'react-error-boundary';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { ProblemAlert } from '../components/ui/problem-alert';
import { Screen } from '../components/ui/screen';
import { Layout } from './layout';
import { paths } from './paths';
import AgentsScreen from './routes/agents';
import BranchesScreen from './routes/branches';
import PayoutNetworksScreen from './routes/payout-networks';
import { ScreenError } from './screen-error';

/** `/` (and any unknown path) opens the agent search, keeping any parameters of the link. */
function ToAgents() {
  const search = useSearch();
  return <Redirect to={`${paths.agents}${search ? `?${search}` : ''}`} replace />;
}

// The operations desk: its own route tree and layout under /ops, one lazy chunk (with its screens,
// forms and the ops contract) that a teller never downloads: no teller screen links to it, and the teller's
// first load (docs/compression-and-caching.md) stays as it was.
const OpsArea = lazy(() => import('./routes/ops/ops-area'));

// The three screens of the spec are in the entry: on a slow link a chunk fetched only once the entry has run
// costs a round trip before the screen can draw (~0.3 s of Lighthouse's LCP), more than their ~7 KB. The code
// screen, reached from the code box, is its own chunk.
const CodeScreen = lazy(() => import('./routes/code'));

const HEADINGS = {
  [paths.agents]: { title: 'agents.title', purpose: 'agents.purpose' },
  [paths.payoutNetworks]: { title: 'payoutNetworks.title', purpose: 'payoutNetworks.purpose' },
  [paths.branches]: { title: 'branches.title', purpose: 'branches.purpose' },
  [paths.code]: { title: 'code.title', purpose: 'code.purpose' },
} as const;

/**
 * While a screen's chunk is on its way (a second on a slow link), its heading and purpose are already shown, in
 * the place and size the screen draws them: the teller sees where the click led, and nothing moves when it lands.
 */
function ScreenLoading({ pathname }: { pathname: string }) {
  const { t } = useTranslation();
  const heading = HEADINGS[pathname as keyof typeof HEADINGS];
  const progress = <LinearProgress aria-label={t('app.loadingScreen')} />;
  return heading ? (
    <Screen title={t(heading.title)} purpose={t(heading.purpose)} loading>
      {progress}
    </Screen>
  ) : (
    progress
  );
}

/** The screen of the current path; one that fails (its chunk not fetched, a render error) shows inside the layout. */
function Screens() {
  const [pathname] = useLocation();
  return (
    <ErrorBoundary FallbackComponent={ScreenError} resetKeys={[pathname]}>
      <Suspense fallback={<ScreenLoading pathname={pathname} />}>
        <Switch>
          <Route path={paths.agents} component={AgentsScreen} />
          <Route path={paths.payoutNetworks} component={PayoutNetworksScreen} />
          <Route path={paths.branches} component={BranchesScreen} />
          <Route path={paths.code} component={CodeScreen} />
          <Route component={ToAgents} />
        </Switch>
      </Suspense>
    </ErrorBoundary>
  );
}

export function AppRouter() {
  return (
    <ErrorBoundary
      fallbackRender={({ error }) => <ProblemAlert error={error} onRetry={() => window.location.reload()} />}
    >
      <Switch>
        <Route path={paths.ops} nest>
          <Suspense fallback={<OpsLoading />}>
            <OpsArea />
          </Suspense>
        </Route>
        <Route>
          <Layout>
            <Screens />
          </Layout>
        </Route>
      </Switch>
    </ErrorBoundary>
  );
}

/** While the desk's chunk loads: a bar, without the teller's app bar (nor its sign-in) showing first. */
function OpsLoading() {
  const { t } = useTranslation();
  return <LinearProgress aria-label={t('app.loadingScreen')} />;
}
