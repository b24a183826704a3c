import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ChangeKind, DiffEntry } from '../../../../contract/ops-changes';
import { fieldLabel } from '../../../components/ui/ops-format';
import { RecordLink } from '../../../components/ui/record-link';

// Read by screen readers only: "before" and "after" around the two values. Placed at the corner of their
// field (position: relative): at their place in the line they would widen a 360 px page past its edge.
const HIDDEN = {
  position: 'absolute',
  top: 0,
  left: 0,
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
} as const;

const OP_COLOURS = { added: 'success', removed: 'error', changed: 'warning' } as const;

/** Field name and value in two columns, the value wrapping anywhere: readable from 360 px. */
const FIELDS_GRID = {
  m: 0,
  mt: 1,
  display: 'grid',
  gridTemplateColumns: 'minmax(6.5em, max-content) minmax(0, 1fr)',
  columnGap: 1.5,
  rowGap: 0.5,
} as const;

/**
 * One record of the difference: its key and a link to its page; added or removed, every field it has or had; a
 * change, every field that differs, before → after; a code change (previousKey), the code before → after first.
 */
export function DiffRecord({ entry, kind }: { entry: DiffEntry; kind: ChangeKind }) {
  const { t } = useTranslation();
  const shown = entry.after ?? entry.before ?? {};
  const name = shown.branchName ?? shown.agentName ?? shown.name ?? null;
  const title = [name, entry.key.join(' · ')].filter(Boolean).join(' — ');
  const codeChanged = entry.previousKey !== undefined;
  const all = entry.op === 'changed' ? null : shown;
  return (
    <Paper
      component="li"
      variant="outlined"
      sx={{ p: 1.5 }}
      data-testid={codeChanged ? 'diff-code-changed' : `diff-${entry.op}`}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Chip
          size="small"
          color={codeChanged ? 'info' : OP_COLOURS[entry.op]}
          label={codeChanged ? t('ops.diff.codeChanged') : t(`ops.diff.${entry.op}`)}
        />
        <Typography component="span" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        {entry.recordKey && (
          <RecordLink
            kind={kind}
            recordKey={entry.recordKey}
            text={t('ops.diff.openRecord')}
            label={t('ops.diff.openRecordOf', { record: title })}
          />
        )}
      </Stack>
      {codeChanged && (
        <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }} data-testid="code-change">
          {t('ops.diff.codeWas', { before: entry.previousKey!.join(' · '), after: entry.key.join(' · ') })}
        </Typography>
      )}
      {all && (
        <Box component="dl" sx={FIELDS_GRID} data-testid="diff-fields">
          {Object.entries(all).map(([field, value]) => (
            <FieldValue key={field} field={field} value={value} />
          ))}
        </Box>
      )}
      {entry.op === 'changed' && entry.before && entry.after && (
        <Box component="dl" sx={FIELDS_GRID}>
          {entry.changedFields.map((field) => (
            <FieldChange key={field} field={field} before={entry.before![field]} after={entry.after![field]} />
          ))}
        </Box>
      )}
    </Paper>
  );
}

/** A field's name (dt) and what it holds (dd), in the record's list of fields. */
function Field({ field, sx, testId, children }: { field: string; sx: object; testId?: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ fontWeight: 500 }}>
        {fieldLabel(field)}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere', ...sx }} data-testid={testId}>
        {children}
      </Typography>
    </>
  );
}

function FieldValue({ field, value }: { field: string; value: string | null }) {
  const { t } = useTranslation();
  return (
    <Field field={field} sx={{ color: value ? undefined : 'text.secondary' }}>
      {value ?? t('ops.diff.empty')}
    </Field>
  );
}

function FieldChange({ field, before, after }: { field: string; before?: string | null; after?: string | null }) {
  const { t } = useTranslation();
  return (
    <Field field={field} sx={{ position: 'relative' }} testId="field-change">
      <Box component="span" sx={HIDDEN}>
        {t('ops.diff.before')}{' '}
      </Box>
      <Box component="del" sx={{ color: 'error.dark' }}>
        {before ?? t('ops.diff.empty')}
      </Box>
      {' → '}
      <Box component="span" sx={HIDDEN}>
        {' '}
        {t('ops.diff.after')}{' '}
      </Box>
      <Box component="ins" sx={{ color: 'success.dark', textDecoration: 'none', fontWeight: 500 }}>
        {after ?? t('ops.diff.empty')}
      </Box>
    </Field>
  );
}
