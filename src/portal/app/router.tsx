import { lazy } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { ProblemAlert } from '../components/ui/problem-alert';
import { Layout } from './layout';
import { paths } from './paths';
import { ScreenError } from './screen-error';

/** `/` (and any unknown path) opens the agent search, keeping any parameters of the link. */
function ToAgents() {
  const search = useSearch();
  return <Redirect to={`${paths.agents}${search ? `?${search}` : ''}`} replace />;
}

// Screens are lazy modules: each becomes its own chunk. index.html preloads the chunks every screen shares
// (vite.config.ts, screenPreload), so the first screen does not wait for the entry before fetching them.
const AgentsScreen = lazy(() => import('./routes/agents'));
const PayoutNetworksScreen = lazy(() => import('./routes/payout-networks'));
const BranchesScreen = lazy(() => import('./routes/branches'));
const CodeScreen = lazy(() => import('./routes/code'));

/** The screen of the current path; one that fails (its chunk not fetched, a render error) shows inside the layout. */
function Screens() {
  const [pathname] = useLocation();
  return (
    <ErrorBoundary FallbackComponent={ScreenError} resetKeys={[pathname]}>
      <Switch>
        <Route path={paths.agents} component={AgentsScreen} />
        <Route path={paths.payoutNetworks} component={PayoutNetworksScreen} />
        <Route path={paths.branches} component={BranchesScreen} />
        <Route path={paths.code} component={CodeScreen} />
        <Route component={ToAgents} />
      </Switch>
    </ErrorBoundary>
  );
}

export function AppRouter() {
  return (
    <ErrorBoundary
      fallbackRender={({ error }) => <ProblemAlert error={error} onRetry={() => window.location.reload()} />}
    >
      <Layout>
        <Screens />
      </Layout>
    </ErrorBoundary>
  );
}
