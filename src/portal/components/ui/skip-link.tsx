import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

/** The keyboard's first stop on every screen: a link to its main content, seen only while it has the focus. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <Box
      component="a"
      href="#main"
      sx={{
        position: 'absolute',
        left: -9999,
        '&:focus': { left: 8, top: 8, zIndex: 2000, bgcolor: 'background.paper', p: 1 },
      }}
    >
      {t('app.skipToContent')}
    </Box>
  );
}
