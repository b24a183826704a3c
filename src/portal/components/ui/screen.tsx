import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ScreenTools } from './screen-tools';

/**
 * The frame of a screen: its heading, a one-line purpose, then the content. `loading`: the frame drawn while the
 * screen's chunk is on its way — its tools are shown where they will be but cannot be used yet (a menu opened
 * there would vanish when the screen lands).
 */
export function Screen({
  title,
  purpose,
  children,
  loading = false,
}: {
  title: string;
  purpose: ReactNode;
  children: ReactNode;
  loading?: boolean;
}) {
  return (
    <Stack spacing={2} component="section" aria-labelledby="screen-title">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
        <div>
          <Typography id="screen-title" component="h1" variant="h5" sx={{ fontSize: { xs: '1.2rem', sm: '1.5rem' } }}>
            {title}
          </Typography>
          {/* On a phone the purpose line gives its room to the answer (the title says enough). */}
          <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
            {purpose}
          </Typography>
        </div>
        <ScreenTools disabled={loading} />
      </Stack>
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
