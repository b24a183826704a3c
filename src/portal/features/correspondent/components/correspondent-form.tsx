import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { lookupHeaders } from '../../../../contract';
import { saveCorrespondentId } from '../../../lib/correspondent-id';

// The form checks the id with the contract's own header schema (spec §5: two upper-case letters, then four
// upper-case letters or digits), so the portal accepts exactly what the API accepts.
const correspondentSchema = lookupHeaders.pick({ 'x-fapi-financial-id': true });
type CorrespondentValues = { 'x-fapi-financial-id': string };

export function CorrespondentForm({ current, onSaved, submitLabel = 'Sign in' }: { current?: string | null; onSaved?: () => void; submitLabel?: string }) {
  const { register, handleSubmit, formState } = useForm<CorrespondentValues>({
    resolver: zodResolver(correspondentSchema),
    defaultValues: { 'x-fapi-financial-id': current ?? '' },
  });
  const error = formState.errors['x-fapi-financial-id'];
  return (
    <Stack
      component="form"
      noValidate
      spacing={2}
      onSubmit={handleSubmit((values) => {
        saveCorrespondentId(values['x-fapi-financial-id']);
        onSaved?.();
      })}
    >
      <TextField
        {...register('x-fapi-financial-id', { setValueAs: (value: string) => value.trim() })}
        label="Agent correspondent id"
        placeholder="AB12CD"
        autoFocus
        autoComplete="off"
        error={Boolean(error)}
        helperText={error ? `The id ${error.message}.` : 'Issued by operations: two upper-case letters, then four letters or digits.'}
        slotProps={{ htmlInput: { maxLength: 6, spellCheck: false, style: { textTransform: 'none', fontFamily: 'monospace' } } }}
      />
      <Button type="submit" variant="contained">
        {submitLabel}
      </Button>
    </Stack>
  );
}
