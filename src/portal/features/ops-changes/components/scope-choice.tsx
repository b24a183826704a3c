import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { ChangeKind } from '../../../../contract/ops-changes';
import { changeScope, type ChangeScope } from '../../../../contract/ops-edits';

/** The maker's choice of what a change replaces: the whole kind, one country, one bank of one country, or upsert. */
export type ScopeMode = 'whole' | 'country' | 'bank' | 'upsert';
export interface ScopeChoiceValue {
  mode: ScopeMode;
  country: string;
  bankCode: string;
}

export const WHOLE_KIND: ScopeChoiceValue = { mode: 'whole', country: '', bankCode: '' };

/**
 * The scope the server is sent (the multipart field `scope`): undefined for the whole kind, null while the
 * country or bank is not given yet (the contract's own check).
 */
export function scopeOf(value: ScopeChoiceValue): ChangeScope | undefined | null {
  if (value.mode === 'whole') return undefined;
  if (value.mode === 'upsert') return { mode: 'upsert' };
  const scope =
    value.mode === 'bank' ? { country: value.country, bankCode: value.bankCode } : { country: value.country };
  const parsed = changeScope.safeParse(scope);
  return parsed.success ? parsed.data : null;
}

/** A bank of one country is a branch's bank or an agent's head office; head offices have no bank scope. */
const modesOf = (kind: ChangeKind): ScopeMode[] =>
  kind === 'partners' ? ['whole', 'country', 'upsert'] : ['whole', 'country', 'bank', 'upsert'];

/** The codes a country or bank scope is given by: the country, and for a bank also the bank's code. */
const CODE_FIELDS = [
  { name: 'country', label: 'ops.upload.scopeCountry', maxLength: 2, testId: 'scope-country' },
  { name: 'bankCode', label: 'ops.upload.scopeBank', maxLength: 11, testId: 'scope-bank' },
] as const;

export function ScopeChoice({
  kind,
  value,
  onChange,
}: {
  kind: ChangeKind;
  value: ScopeChoiceValue;
  onChange: (value: ScopeChoiceValue) => void;
}) {
  const { t } = useTranslation();
  const incomplete = scopeOf(value) === null;
  const upper = (text: string) => text.toUpperCase().replace(/\s+/g, '');
  return (
    <FormControl>
      <FormLabel id="scope-label">{t('ops.upload.scope')}</FormLabel>
      <RadioGroup
        aria-labelledby="scope-label"
        aria-describedby="scope-hint"
        value={value.mode}
        onChange={(event) => onChange({ ...value, mode: event.target.value as ScopeMode })}
      >
        {modesOf(kind).map((mode) => (
          <FormControlLabel key={mode} value={mode} control={<Radio />} label={t(`ops.upload.scopes.${mode}`)} />
        ))}
      </RadioGroup>
      {(value.mode === 'country' || value.mode === 'bank') && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 1 }}>
          {CODE_FIELDS.filter((field) => field.name === 'country' || value.mode === 'bank').map((field) => (
            <TextField
              key={field.name}
              size="small"
              label={t(field.label)}
              value={value[field.name]}
              onChange={(event) => onChange({ ...value, [field.name]: upper(event.target.value) })}
              slotProps={{
                htmlInput: { maxLength: field.maxLength, autoCapitalize: 'characters', 'data-testid': field.testId },
              }}
            />
          ))}
        </Stack>
      )}
      <FormHelperText id="scope-hint" error={incomplete}>
        {incomplete ? t('ops.upload.scopeIncomplete') : t('ops.upload.scopeHint')}
      </FormHelperText>
    </FormControl>
  );
}
