import type { ReactElement } from 'react';
import { afterEach } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { AppProvider } from '../app/provider';

// Vitest runs without globals, so Testing Library cannot register its own unmount after each test.
afterEach(cleanup);

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
