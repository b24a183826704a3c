import { Suspense, lazy, type ComponentProps } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';

// The form brings zod, the contract and react-hook-form; loading it on demand keeps them out of the
// initial JavaScript (budget: 250 KB gzip), since a signed-in teller rarely opens it.
const CorrespondentFormChunk = lazy(() =>
  import('./correspondent-form').then((module) => ({ default: module.CorrespondentForm })),
);

export function LazyCorrespondentForm(props: ComponentProps<typeof CorrespondentFormChunk>) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<LinearProgress aria-label={t('correspondent.loadingForm')} />}>
      <CorrespondentFormChunk {...props} />
    </Suspense>
  );
}
