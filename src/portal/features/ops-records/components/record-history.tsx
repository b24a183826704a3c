import { Fragment } from 'react';
import { Link as RouterLink } from 'wouter';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { RecordHistoryEntry } from '../../../../contract/ops-records';
import { CopyButton } from '../../../components/ui/copy-button';
import { formatTime } from '../../../components/ui/ops-format';
import { fieldGridSx, useFieldLabel } from './record-fields';

const OP_COLOURS = { add: 'success', change: 'warning', remove: 'error' } as const;

/** Read by screen readers only: "before:" and "after:" around a changed value (at its field's corner: an
 * absolute box left at its place in a long wrapped line would widen the page). */
const HIDDEN = {
  position: 'absolute',
  left: 0,
  top: 0,
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * A record's whole life, newest first: per published version, what it did to the record, when, who staged and who
 * approved it, the checker's comment, the file and its SHA-256, and the fields (a change: each changed field
 * before → after; an add or a remove: every field). A list of cards, not a table: it reads on a phone.
 */
export function RecordHistory({ history }: { history: RecordHistoryEntry[] }) {
  const { t } = useTranslation();
  if (history.length === 0)
    return (
      <Typography variant="body2" role="status" data-testid="history-none">
        {t('ops.records.history.none')}
      </Typography>
    );
  return (
    <Stack
      component="ol"
      spacing={1.5}
      sx={{ listStyle: 'none', m: 0, p: 0 }}
      aria-label={t('ops.records.history.title')}
    >
      {history.map((entry) => (
        <HistoryEntry key={`${entry.versionId}:${entry.op}`} entry={entry} />
      ))}
    </Stack>
  );
}

function HistoryEntry({ entry }: { entry: RecordHistoryEntry }) {
  const { t } = useTranslation();
  const label = useFieldLabel((entry.after ?? entry.before)?.country);
  const shown = entry.op === 'change' ? entry.changedFields : Object.keys(entry.after ?? entry.before ?? {});
  return (
    <Paper component="li" variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} data-testid="history-entry">
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Link component={RouterLink} to="/history" sx={{ fontWeight: 500 }} data-testid="history-version">
            {t('ops.records.history.version', { version: entry.versionId })}
          </Link>
          <Chip size="small" color={OP_COLOURS[entry.op]} label={t(`ops.records.history.ops.${entry.op}`)} />
          <Typography variant="body2" component="span" data-testid="history-when">
            {formatTime(entry.publishedAt)}
          </Typography>
        </Stack>
        <Typography variant="body2" data-testid="history-people">
          {t('ops.records.history.people', {
            staged: entry.stagedBy ?? t('ops.records.history.nobody'),
            approved: entry.approvedBy ?? t('ops.records.history.nobody'),
          })}
        </Typography>
        {entry.comment && (
          <Typography variant="body2" data-testid="history-comment">
            {t('ops.records.history.comment', { comment: entry.comment })}
          </Typography>
        )}
        <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }} data-testid="history-file">
          <div>
            {t('ops.records.history.file')} {entry.fileName}
          </div>
          <div>
            SHA-256{' '}
            <Box component="code" title={entry.fileSha256} data-sha256={entry.fileSha256}>
              {entry.fileSha256.slice(0, 12)}…
            </Box>
            <CopyButton value={entry.fileSha256} label="SHA-256" />
          </div>
        </Typography>
        <Box component="dl" sx={fieldGridSx} data-testid="history-fields">
          {shown.map((name) => (
            <Fragment key={name}>
              <dt>{label(name)}</dt>
              <dd data-testid="history-field">
                <FieldValues op={entry.op} before={entry.before?.[name]} after={entry.after?.[name]} />
              </dd>
            </Fragment>
          ))}
        </Box>
      </Stack>
    </Paper>
  );
}

/** A changed field before → after; an added or removed record's field as it was. */
function FieldValues({
  op,
  before,
  after,
}: {
  op: RecordHistoryEntry['op'];
  before: string | null | undefined;
  after: string | null | undefined;
}) {
  const { t } = useTranslation();
  const empty = t('ops.records.history.empty');
  if (op === 'add') return <>{after || empty}</>;
  if (op === 'remove') return <>{before || empty}</>;
  return (
    <>
      <Box component="span" sx={HIDDEN}>
        {t('ops.records.history.before')}{' '}
      </Box>
      <Box component="del" sx={{ color: 'error.dark' }}>
        {before || empty}
      </Box>
      {' → '}
      <Box component="span" sx={HIDDEN}>
        {t('ops.records.history.after')}{' '}
      </Box>
      <Box component="ins" sx={{ color: 'success.dark', textDecoration: 'none', fontWeight: 500 }}>
        {after || empty}
      </Box>
    </>
  );
}
