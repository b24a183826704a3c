import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation } from 'wouter';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ChangeKind } from '../../../../contract/ops-changes';
import type { EditsBody } from '../../../../contract/ops-edits';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { ApiError } from '../../../lib/api-client';
import { translateParameterMessage } from '../../../lib/i18n';
import { useStageEdits } from '../api/stage-edits';
import { recordFormSchema, type FormValues } from './record-form-schema';
import { useFieldLabel } from './record-fields';

/**
 * A record's fields in a form (a change of a served record, or a new one). Checked here first; what passes is
 * staged as a change (`toBody`: null when there is nothing to send) and the change's page follows, where it is
 * validated, diffed and approved like a file. The server's problems are shown with the form, each on its field
 * when the problem names one.
 */
export function RecordForm({
  kind,
  fields,
  initial,
  country,
  title,
  submitLabel,
  toBody,
  onCancel,
}: {
  kind: ChangeKind;
  fields: readonly string[];
  initial: FormValues;
  /** The record's country (a branch's routing number is called by its country's name: IFSC). */
  country?: string;
  title: string;
  submitLabel: string;
  toBody: (values: FormValues) => EditsBody | null;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const label = useFieldLabel(country);
  const [, navigate] = useLocation();
  const stage = useStageEdits();
  const [unchanged, setUnchanged] = useState(false);
  const schema = useMemo(() => recordFormSchema(kind, fields, t), [kind, fields, t]);
  const { register, handleSubmit, formState, setError } = useForm<FormValues>({
    resolver: zodResolver(schema),
    defaultValues: initial,
    mode: 'onTouched',
  });
  const submit = handleSubmit((values) => {
    const body = toBody(values);
    setUnchanged(body === null);
    if (!body) return;
    stage.mutate(body, {
      onSuccess: (change) => navigate(`/changes/${change.id}`),
      onError: (error) => {
        // A problem naming a field (`edits/0/fields/routingNumber`, `routingNumber`…) is shown on it too.
        if (!(error instanceof ApiError)) return;
        for (const problem of error.errors) {
          const name = problem.name.split(/[./[\]]/).findLast((part) => fields.includes(part));
          if (name) setError(name, { type: 'server', message: translateParameterMessage(problem.message) });
        }
      },
    });
  });
  const titleId = `record-form-${kind}`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)} aria-labelledby={titleId}>
        <Typography id={titleId} component="h2" variant="h6">
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('ops.records.edit.fourEyes')}
        </Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}>
          {fields.map((name) => {
            const error = formState.errors[name];
            return (
              <TextField
                key={name}
                {...register(name)}
                size="small"
                label={label(name)}
                error={Boolean(error)}
                helperText={error?.message}
                slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'off', 'data-field': name } }}
              />
            );
          })}
        </Box>
        {unchanged && (
          <Alert severity="info" role="status">
            {t('ops.records.edit.unchanged')}
          </Alert>
        )}
        {stage.error && <ProblemAlert error={stage.error} />}
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" loading={stage.isPending}>
            {submitLabel}
          </Button>
          <Button onClick={onCancel}>{t('ops.common.cancel')}</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
