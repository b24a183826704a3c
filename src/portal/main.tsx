import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';

// index.html's app-bar shell is painted before React replaces it: the render starts after the next frame
// (requestAnimationFrame runs just before a paint, the timeout just after it). On a teller's slow link the
// scripts take seconds and the shell shows meanwhile anyway; on a fast one this costs one frame, and the
// first paint is the shell every time rather than whichever of the two a race lets through first.
// The first render is a transition: React draws the portal in slices between which the browser stays
// responsive, rather than in one long task while a slow PC also parses the scripts.
const root = createRoot(document.getElementById('root')!);
requestAnimationFrame(() =>
  setTimeout(() =>
    startTransition(() =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    ),
  ),
);
