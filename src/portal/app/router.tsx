import { Navigate, createBrowserRouter, useLocation, useRouteError } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ProblemAlert } from '../components/ui/problem-alert';
import { Layout } from './layout';
import { paths } from './paths';
import { ScreenError } from './screen-error';

/** `/` opens the agent search, keeping any parameters of the link. */
function ToAgents() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: paths.agents, search }} replace />;
}

function RouteError() {
  return <ProblemAlert error={useRouteError()} onRetry={() => window.location.reload()} />;
}

// Screens are lazy route modules: each becomes its own chunk, so the first load carries only the frame.
const router = createBrowserRouter([
  {
    path: '/',
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      {
        // A screen that fails (its chunk not fetched, a render error) shows inside the layout: app bar and tabs stay.
        errorElement: <ScreenError />,
        children: [
          { index: true, element: <ToAgents /> },
          { path: paths.agents, lazy: () => import('./routes/agents') },
          { path: paths.payoutNetworks, lazy: () => import('./routes/payout-networks') },
          { path: paths.branches, lazy: () => import('./routes/branches') },
          { path: paths.code, lazy: () => import('./routes/code') },
          { path: '*', element: <ToAgents /> },
        ],
      },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
