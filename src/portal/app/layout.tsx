import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation, useSearch } from 'wouter';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { CodeBox } from '../features/code-lookup/components/code-box';
import { CorrespondentButton } from '../features/correspondent/components/correspondent-button';
import { SignIn } from '../features/correspondent/components/sign-in';
import { DataStatusFooter } from '../features/data-status/components/data-status-footer';
import { ReceivingSelector } from '../features/receiving-selector/components/receiving-selector';
import { LanguageSwitch } from '../components/ui/language-switch';
import { ServiceNotAnswering } from '../components/ui/service-not-answering';
import { SkipLink } from '../components/ui/skip-link';
import { useCorrespondentId } from '../lib/correspondent-id';
import { selectionSearch } from '../lib/url-state';
import { paths } from './paths';

const SCREENS = [
  { path: paths.agents, label: 'app.tabs.agents' },
  { path: paths.payoutNetworks, label: 'app.tabs.payoutNetworks' },
  { path: paths.branches, label: 'app.tabs.branches' },
] as const;

/** App bar (correspondent id, receiving country and mode, screens), the screen, and the data-status footer. */
export function Layout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const correspondentId = useCorrespondentId();
  const [pathname] = useLocation();
  const search = selectionSearch(new URLSearchParams(useSearch()));
  // On a phone the three tabs share the width (labels may wrap) instead of hiding one behind a scroll arrow.
  const isPhone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const current = SCREENS.find((screen) => pathname.startsWith(screen.path))?.path ?? false;
  const controls = (
    <Box sx={{ bgcolor: 'background.paper', color: 'text.primary', px: { xs: 0, sm: 2 } }}>
      <ReceivingSelector />
      <Tabs
        value={current}
        component="nav"
        aria-label={t('app.screens')}
        variant={isPhone ? 'fullWidth' : 'scrollable'}
        allowScrollButtonsMobile
      >
        {SCREENS.map((screen) => (
          <Tab
            key={screen.path}
            label={t(screen.label)}
            value={screen.path}
            component={RouterLink}
            to={`${screen.path}${search}`}
            sx={isPhone ? { minWidth: 0, px: 0.5, py: 1, fontSize: '0.8rem' } : undefined}
          />
        ))}
      </Tabs>
    </Box>
  );

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      {/* On a phone the bar is one line (≤ 64 px) and the code box, selector and tabs follow it in the
          page; on wider screens they stay in the sticky bar. */}
      <AppBar position="sticky" component="header" sx={{ position: { xs: 'static', sm: 'sticky' } }}>
        <Toolbar variant="dense" sx={{ gap: { xs: 0.5, sm: 1 }, py: { xs: 0, sm: 0.75 }, minHeight: 48 }}>
          <Typography
            component="p"
            variant="h6"
            noWrap
            sx={{ flexGrow: 1, minWidth: 0, fontSize: { xs: '1rem', sm: '1.25rem' } }}
          >
            {t('app.title')}
          </Typography>
          {correspondentId && !isPhone && <CodeBox />}
          <LanguageSwitch />
          {correspondentId && <CorrespondentButton correspondentId={correspondentId} compact={isPhone} />}
        </Toolbar>
        {correspondentId && !isPhone && controls}
      </AppBar>
      {correspondentId && isPhone && (
        <Box sx={{ px: 1, pt: 1 }}>
          <CodeBox />
          {controls}
        </Box>
      )}
      {/* At least a screen high: the data-status footer starts below the fold, so results arriving above it do not
          push a visible footer down the page (a layout shift the teller would see, and Lighthouse counts). */}
      <Container
        component="main"
        id="main"
        tabIndex={-1}
        maxWidth="xl"
        sx={{ flex: 1, minHeight: '100vh', py: 2, px: { xs: 1, sm: 2 } }}
      >
        {correspondentId ? children : <SignIn />}
      </Container>
      <DataStatusFooter enabled={Boolean(correspondentId)} />
      <ServiceNotAnswering />
    </Box>
  );
}
