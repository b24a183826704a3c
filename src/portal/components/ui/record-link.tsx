import Link from '@mui/material/Link';
import { Link as RouterLink } from 'wouter';
import type { ChangeKind } from '../../../contract/ops-changes';
import { recordPath } from '../../lib/links';

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
    <Link component={RouterLink} to={recordPath(kind, recordKey)} aria-label={label} sx={{ overflowWrap: 'anywhere' }}>
      {text}
    </Link>
  );
}
