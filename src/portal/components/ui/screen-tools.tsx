import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useSearch } from 'wouter';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import HistoryIcon from '@mui/icons-material/History';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useTranslation } from 'react-i18next';
import {
  clearCount,
  clearRecentSearches,
  isSearch,
  rememberSearch,
  useRecentSearches,
} from '../../lib/recent-searches';
import { selectionSearch } from '../../lib/url-state';

/** A search is remembered once the teller has stopped changing it for this long (not every keystroke). */
const SETTLED_MS = 1_500;

/** "MX · 01 · Tequesquitlán · JAL": what a remembered search asked, short enough for a menu line. */
function describe(href: string, screenName: (path: string) => string): string {
  const url = new URL(href, 'http://portal');
  const values = [...url.searchParams]
    .filter(([name]) => name !== 'pageNumber' && name !== 'pageSize')
    .map(([, value]) => value);
  return `${screenName(url.pathname)}: ${values.join(' · ')}`;
}

/** A screen's reset button and its recent searches, at the top of every screen. */
export function ScreenTools({ disabled = false }: { disabled?: boolean }) {
  const { t } = useTranslation();
  const [pathname, navigate] = useLocation();
  const search = useSearch();
  const recent = useRecentSearches();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  useEffect(() => {
    if (disabled || !isSearch(search)) return;
    const clearsBefore = clearCount();
    const timer = setTimeout(() => {
      if (clearCount() === clearsBefore) rememberSearch(`${pathname}?${search}`);
    }, SETTLED_MS);
    return () => clearTimeout(timer);
  }, [disabled, pathname, search]);

  const screenName = (path: string) =>
    path.startsWith('/agents')
      ? t('app.tabs.agents')
      : path.startsWith('/payout-networks')
        ? t('app.tabs.payoutNetworks')
        : path.startsWith('/branches')
          ? t('app.tabs.branches')
          : t('code.title');

  return (
    <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
      <Button
        size="small"
        startIcon={<RestartAltIcon />}
        aria-label={t('teller.resetLabel')}
        disabled={disabled || !isSearch(search)}
        // The country and mode stay (they are the app bar's); the screen's own fields empty.
        onClick={() => navigate(`${pathname}${selectionSearch(new URLSearchParams(search))}`)}
      >
        {t('teller.reset')}
      </Button>
      <Button
        size="small"
        startIcon={<HistoryIcon />}
        aria-label={t('teller.recentLabel')}
        aria-haspopup="menu"
        aria-expanded={anchor ? true : undefined}
        aria-controls={anchor ? 'recent-menu' : undefined}
        disabled={disabled}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('teller.recent')}
      </Button>
      <Menu id="recent-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {recent.length === 0 && <MenuItem disabled>{t('teller.recentNone')}</MenuItem>}
        {recent.map((entry) => (
          <MenuItem
            key={entry.href}
            component={RouterLink}
            to={entry.href}
            onClick={() => setAnchor(null)}
            sx={{ maxWidth: 360, whiteSpace: 'normal' }}
          >
            {describe(entry.href, screenName)}
          </MenuItem>
        ))}
        {recent.length > 0 && <Divider />}
        {recent.length > 0 && (
          <MenuItem
            onClick={() => {
              clearRecentSearches();
              setAnchor(null);
            }}
          >
            {t('teller.recentClear')}
          </MenuItem>
        )}
      </Menu>
    </Stack>
  );
}
