import { Link as RouterLink } from 'wouter';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import type { ChangeKind } from '../../../../contract/ops-changes';
import { deskRecordLink } from '../../../lib/links';

/**
 * From a teller screen, for a browser that also holds a desk session: the record's page in the operations desk
 * (its own area, its code loaded when the link is followed). Shown only where the app has found that session.
 */
export function OpenInDesk({ kind, parts }: { kind: ChangeKind; parts: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <Link
      component={RouterLink}
      to={deskRecordLink(kind, parts)}
      variant="body2"
      data-testid="open-in-desk"
      sx={{ whiteSpace: 'nowrap' }}
    >
      {t('common.openInDesk')}
    </Link>
  );
}

/** A branch's natural key (the server's record key): country and routing number, else bank, name and address. */
export const branchRecordParts = (branch: {
  country: string;
  routingNumber: string | null;
  bankCode: string | null;
  branchName: string;
  addressLine1: string | null;
}): string[] =>
  branch.routingNumber
    ? [branch.country, branch.routingNumber]
    : [branch.country, branch.bankCode ?? '', branch.branchName, branch.addressLine1 ?? ''];
