import type { ReactElement } from 'react';
import { afterEach } from 'vitest';
import { cleanup, configure, render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AppProvider } from '../app/provider';

// Vitest runs without globals, so Testing Library cannot register its own unmount after each test.
afterEach(cleanup);
// Real requests to the real API on a shared machine: give findBy/waitFor more than the 1 s default.
configure({ asyncUtilTimeout: 10_000 });

/**
 * Renders a piece of the portal with the app's own providers, at a URL (the portal's state lives there).
 * `location()` is the URL the piece has navigated to since.
 */
export function renderAt(url: string, ui: ReactElement) {
  const memory = memoryLocation({ path: url, record: true });
  const view = render(
    <AppProvider>
      <Router hook={memory.hook} searchHook={memory.searchHook}>
        {ui}
      </Router>
    </AppProvider>,
  );
  const location = () => new URL(memory.history.at(-1)!, 'http://portal');
  return { location, ...view };
}
