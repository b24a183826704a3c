import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { lookupHeaders } from '../../../../contract';
import { ApiError, apiGet } from '../../../lib/api-client';
import { saveCorrespondentId } from '../../../lib/correspondent-id';
import { CORRESPONDENT_ID_INPUT } from './id-input';
import { i18n, translateRule } from '../../../lib/i18n';

// The form checks the id with the contract's own header schema (spec §5: two upper-case letters, then four
// upper-case letters or digits), so the portal accepts exactly what the API accepts.
const correspondentSchema = lookupHeaders.pick({ 'x-fapi-financial-id': true });
type CorrespondentValues = { 'x-fapi-financial-id': string };

/**
 * Asks the service whether it serves this id: a lookup sent with it as x-fapi-financial-id. With
 * a correspondent registry configured an unknown id gets 403; without one every well-formed id is served.
 */
async function serviceRefusal(id: string): Promise<string | undefined> {
  try {
    await apiGet('/v1/receiving-countries', { financialId: id });
    return undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403)
      return i18n.t('correspondent.unknown', { id, correlationId: error.correlationId });
    if (error instanceof ApiError) return i18n.t('correspondent.uncheckable', { message: error.sentence });
    throw error;
  }
}

/**
 * The sign-in screen's check (its field is drawn before this module loads, sign-in.tsx): why the id typed is
 * refused, by the contract's pattern or by the service; undefined when it is served.
 */
export async function correspondentIdProblem(id: string): Promise<string | undefined> {
  const parsed = correspondentSchema.safeParse({ 'x-fapi-financial-id': id });
  if (!parsed.success)
    return i18n.t('correspondent.invalid', { message: translateRule(parsed.error.issues[0]?.message) });
  return serviceRefusal(id);
}

export function CorrespondentForm({
  current,
  onSaved,
  submitLabel,
}: {
  current?: string | null;
  onSaved?: () => void;
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  const { register, handleSubmit, formState, setError } = useForm<CorrespondentValues>({
    resolver: zodResolver(correspondentSchema),
    defaultValues: { 'x-fapi-financial-id': current ?? '' },
  });
  const [checking, setChecking] = useState(false);
  const error = formState.errors['x-fapi-financial-id'];
  return (
    <Stack
      component="form"
      noValidate
      spacing={2}
      onSubmit={handleSubmit(async (values) => {
        const id = values['x-fapi-financial-id'];
        setChecking(true);
        const refusal = await serviceRefusal(id).finally(() => setChecking(false));
        if (refusal) return setError('x-fapi-financial-id', { type: 'service', message: refusal });
        saveCorrespondentId(id);
        onSaved?.();
      })}
    >
      <TextField
        // Ids are issued in upper case; "ab12cd" typed on a phone keyboard is the same id.
        {...register('x-fapi-financial-id', { setValueAs: (value: string) => value.trim().toUpperCase() })}
        label={t('correspondent.field')}
        placeholder="AB12CD"
        autoFocus
        autoComplete="off"
        error={Boolean(error)}
        helperText={
          error
            ? error.type === 'service'
              ? error.message
              : t('correspondent.invalid', { message: translateRule(error.message) })
            : t('correspondent.hint')
        }
        slotProps={CORRESPONDENT_ID_INPUT}
      />
      <Button type="submit" variant="contained" loading={checking}>
        {submitLabel ?? t('correspondent.signIn')}
      </Button>
    </Stack>
  );
}
