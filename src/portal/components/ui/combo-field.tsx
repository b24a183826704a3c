import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

export interface ComboOption {
  value: string;
  label: string;
  /** Shown after the label in the list (a count), not part of what is matched. */
  count?: string;
}

/**
 * A choice from a list that may be long (up to 190 cities, 40 banks): a combobox that narrows as the teller
 * types, used with the keyboard alone (type, ↓/↑, Enter; Escape or clearing means "all"). The value
 * is a code kept in the URL; '' is "all". A value that is not in the list (a shared link) still shows as itself.
 */
export function ComboField({
  label,
  options,
  value,
  onChange,
  disabled,
  helperText,
  error,
  loading,
  sx,
  name,
}: {
  label: string;
  options: ComboOption[];
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  helperText?: string;
  error?: boolean;
  loading?: boolean;
  sx?: SxProps<Theme>;
  name?: string;
}) {
  const { t } = useTranslation();
  const listed = options.find((option) => option.value === value);
  const chosen = value ? (listed ?? { value, label: value }) : null;
  const all = chosen && !listed ? [chosen, ...options] : options;
  return (
    <Autocomplete
      size="small"
      sx={sx}
      options={all}
      value={chosen}
      disabled={disabled}
      loading={loading}
      autoHighlight
      getOptionLabel={(option) => option.label}
      isOptionEqualToValue={(option, current) => option.value === current.value}
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props} data-value={option.value}>
          {option.label}
          {option.count}
        </li>
      )}
      noOptionsText={t('common.noOptions')}
      loadingText={t('common.loading')}
      openText={t('common.open')}
      closeText={t('common.close')}
      clearText={t('common.clear')}
      onChange={(_, next) => onChange(next?.value ?? '')}
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          label={label}
          helperText={helperText}
          error={error}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false },
            // The list's reason for being empty stays readable (WCAG contrast) though the field is disabled.
            formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } },
          }}
        />
      )}
    />
  );
}
