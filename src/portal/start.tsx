import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { i18nReady } from './lib/i18n';

// The portal itself, imported by main.ts once the shell is painted. The first render is a transition: React
// draws the portal in slices between which the browser stays responsive, rather than in one long task while a
// slow PC also parses the scripts.
// The teller's language is loaded first (at once for English; one small chunk for another language).
const root = createRoot(document.getElementById('root')!);
void i18nReady.then(() =>
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  ),
);
