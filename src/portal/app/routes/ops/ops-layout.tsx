import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'wouter';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import { useTranslation } from 'react-i18next';
import type { OpsRole } from '../../../../contract/ops-auth';
import { LanguageSwitch } from '../../../components/ui/language-switch';
import { SkipLink } from '../../../components/ui/skip-link';
import { useSignOut } from '../../../features/ops-session/api/sign-out';
import { WaitingCount } from '../../../features/ops-changes/components/waiting-count';

/** The desk's screens, in the order of a day's work; each shown to the roles that use it. */
export const OPS_SCREENS: { path: string; label: string; roles?: OpsRole[] }[] = [
  { path: '/inbox', label: 'ops.nav.inbox' },
  { path: '/mine', label: 'ops.nav.mine', roles: ['maker'] },
  { path: '/upload', label: 'ops.nav.upload', roles: ['maker'] },
  { path: '/records', label: 'ops.nav.records' },
  { path: '/reports', label: 'ops.nav.reports' },
  { path: '/history', label: 'ops.nav.history' },
  { path: '/quality', label: 'ops.nav.quality' },
  { path: '/audit', label: 'ops.nav.audit' },
  { path: '/accounts', label: 'ops.nav.accounts', roles: ['admin'] },
];

export const screensFor = (roles: OpsRole[]) =>
  OPS_SCREENS.filter((screen) => !screen.roles || screen.roles.some((role) => roles.includes(role)));

/** The desk's frame: its own app bar (no teller screens, no correspondent id), its screens, the account. */
export function OpsLayout({ user, children }: { user?: { name: string; roles: OpsRole[] }; children: ReactNode }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const signOut = useSignOut();
  const screens = user ? screensFor(user.roles) : [];
  const current = screens.find((screen) => location.startsWith(screen.path))?.path ?? false;
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <AppBar position="static" component="header" sx={{ bgcolor: '#263238' }}>
        <Toolbar variant="dense" sx={{ gap: 1, flexWrap: 'wrap', py: 0.5 }}>
          <Typography component="p" variant="h6" sx={{ flexGrow: 1, fontSize: { xs: '1rem', sm: '1.25rem' } }}>
            {t('ops.title')}
          </Typography>
          {user && (
            <Typography variant="body2" data-testid="ops-user">
              {t('ops.signedInAs', { name: user.name, roles: user.roles.map((r) => t(`ops.roles.${r}`)).join(', ') })}
            </Typography>
          )}
          {user && <WaitingCount user={user} />}
          <LanguageSwitch />
          {user && (
            <Button
              color="inherit"
              startIcon={<LogoutIcon />}
              loading={signOut.isPending}
              onClick={() => signOut.mutate()}
            >
              {t('ops.signOut')}
            </Button>
          )}
        </Toolbar>
        {user && (
          <Box sx={{ bgcolor: 'background.paper', color: 'text.primary', px: { xs: 0, sm: 2 } }}>
            <Tabs
              value={current}
              component="nav"
              aria-label={t('ops.nav.label')}
              variant="scrollable"
              allowScrollButtonsMobile
            >
              {screens.map((screen) => (
                <Tab
                  key={screen.path}
                  label={t(screen.label as never)}
                  value={screen.path}
                  component={RouterLink}
                  to={screen.path}
                />
              ))}
            </Tabs>
          </Box>
        )}
      </AppBar>
      <Container component="main" id="main" tabIndex={-1} maxWidth="xl" sx={{ flex: 1, py: 2, px: { xs: 1, sm: 2 } }}>
        {children}
      </Container>
    </Box>
  );
}
