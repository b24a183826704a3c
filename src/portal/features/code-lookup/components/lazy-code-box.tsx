import { Suspense, lazy } from 'react';
import Box from '@mui/material/Box';

// The box validates with the contract's schema (zod, react-hook-form): its own chunk keeps them out of the
// initial JavaScript (budget: 250 KB gzip); it loads right after the frame, in a slot of its final size.
const CodeBoxChunk = lazy(() => import('./code-box').then((module) => ({ default: module.CodeBox })));

export function LazyCodeBox() {
  return (
    <Suspense fallback={<Box sx={{ height: 52, width: { xs: '100%', sm: 340 } }} />}>
      <CodeBoxChunk />
    </Suspense>
  );
}
