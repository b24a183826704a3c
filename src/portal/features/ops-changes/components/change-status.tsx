import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { ChangeStatus } from '../../../../contract/ops-changes';

const COLOURS: Record<ChangeStatus, 'default' | 'info' | 'success' | 'warning' | 'error'> = {
  validating: 'info',
  staged: 'warning',
  stale: 'warning',
  approved: 'info',
  published: 'success',
  rejected: 'error',
  discarded: 'default',
  expired: 'default',
  failed: 'error',
};

export function ChangeStatusChip({ status }: { status: ChangeStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={COLOURS[status]} label={t(`ops.status.${status}`)} data-testid="change-status" />;
}
