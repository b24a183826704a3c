import type { ReactElement } from 'react';
import { afterEach } from 'vitest';
import { cleanup, configure, render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { AppProvider } from '../app/provider';

// Vitest runs without globals, so Testing Library cannot register its own unmount after each test.
afterEach(cleanup);
// Real requests to the real API on a shared machine: give findBy/waitFor more than the 1 s default.
configure({ asyncUtilTimeout: 10_000 });

/** Renders a piece of the portal with the app's own providers, at a URL (the portal's state lives there). */
export function renderAt(url: string, ui: ReactElement) {
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [url] });
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { router, ...view };
}
