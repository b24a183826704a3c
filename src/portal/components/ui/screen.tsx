import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The frame of a screen: its heading, a one-line purpose, then the content. */
export function Screen({ title, purpose, children }: { title: string; purpose: ReactNode; children: ReactNode }) {
  return (
    <Stack spacing={2} component="section" aria-labelledby="screen-title">
      <div>
        <Typography id="screen-title" component="h1" variant="h5">
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {purpose}
        </Typography>
      </div>
      {children}
    </Stack>
  );
}

/** Every screen needs the app bar's receiving country and delivery mode first. */
export function ChooseSelection() {
  const { t } = useTranslation();
  return (
    <Alert severity="info" role="status">
      {t('selector.choose')}
    </Alert>
  );
}
