import Link from '@mui/material/Link';
import { Link as RouterLink } from 'wouter';
import type { ChangeKind } from '../../../contract/ops-changes';

/** The desk's page of one record (`/ops/records/{kind}/{key}`, the key as contract/ops-records.ts writes it). */
export const recordHref = (kind: ChangeKind, key: string) => `/records/${kind}/${encodeURIComponent(key)}`;

/** A link to a record's page; `label` says which record for a screen reader when the text alone does not. */
export function RecordLink({
  kind,
  recordKey,
  text,
  label,
}: {
  kind: ChangeKind;
  recordKey: string;
  text: string;
  label?: string;
}) {
  return (
    <Link component={RouterLink} to={recordHref(kind, recordKey)} aria-label={label} sx={{ overflowWrap: 'anywhere' }}>
      {text}
    </Link>
  );
}
