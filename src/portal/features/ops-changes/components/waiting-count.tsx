import { Link as RouterLink } from 'wouter';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import InboxIcon from '@mui/icons-material/Inbox';
import { useTranslation } from 'react-i18next';
import type { OpsRole } from '../../../../contract/ops-auth';
import { useWaiting } from '../api/change-flow';

/**
 * In the desk's app bar, for a checker: how many changes wait for them (staged by someone else, without
 * problems), asked again every few seconds while the tab is visible; a link to the inbox.
 */
export function WaitingCount({ user }: { user: { roles: OpsRole[] } }) {
  const { t } = useTranslation();
  const checker = user.roles.includes('checker');
  const query = useWaiting(checker);
  if (!checker || !query.data) return null;
  const count = query.data.count;
  const label = count === 0 ? t('ops.flow.waitingNone') : t('ops.flow.waiting', { count });
  return (
    <IconButton
      color="inherit"
      component={RouterLink}
      to="/inbox"
      data-testid="waiting-count"
      data-count={count}
      aria-label={label}
      title={`${label}. ${t('ops.flow.updatesEvery')}`}
    >
      <Badge badgeContent={count} color="secondary" max={999}>
        <InboxIcon />
      </Badge>
    </IconButton>
  );
}
