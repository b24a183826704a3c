import { useState } from 'react';
import { useLocation } from 'wouter';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ChangeKind } from '../../../../contract/ops-changes';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { useStageEdits } from '../api/stage-edits';
import { editsOf } from './record-form-schema';

/** "Remove this record", asked twice: it stages the removal as a change (a checker approves it), then opens it. */
export function RemoveRecord({ kind, recordKey, name }: { kind: ChangeKind; recordKey: string; name: string }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const stage = useStageEdits();
  const [asked, setAsked] = useState(false);
  const remove = () =>
    stage.mutate(editsOf(kind, { op: 'remove', key: recordKey }), {
      onSuccess: (change) => navigate(`/changes/${change.id}`),
    });
  if (!asked)
    return (
      <Button color="error" onClick={() => setAsked(true)}>
        {t('ops.records.remove.ask')}
      </Button>
    );
  return (
    <Stack spacing={1} role="group" aria-labelledby="remove-record-question" sx={{ flexBasis: '100%' }}>
      <Typography id="remove-record-question" variant="body2">
        {t('ops.records.remove.sure', { name })}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="contained" color="error" loading={stage.isPending} onClick={remove} autoFocus>
          {t('ops.records.remove.yes')}
        </Button>
        <Button onClick={() => setAsked(false)}>{t('ops.common.cancel')}</Button>
      </Stack>
      {stage.error && <ProblemAlert error={stage.error} />}
    </Stack>
  );
}
