import { Suspense, lazy, type ComponentProps } from 'react';
import LinearProgress from '@mui/material/LinearProgress';

// The form brings zod, the contract and react-hook-form; loading it on demand keeps them out of the
// initial JavaScript (budget: 250 KB gzip), since a signed-in teller rarely opens it.
const CorrespondentFormChunk = lazy(() =>
  import('./correspondent-form').then((module) => ({ default: module.CorrespondentForm })),
);

export function LazyCorrespondentForm(props: ComponentProps<typeof CorrespondentFormChunk>) {
  return (
    <Suspense fallback={<LinearProgress aria-label="Loading form" />}>
      <CorrespondentFormChunk {...props} />
    </Suspense>
  );
}
