import type { SxProps } from '@mui/material/styles';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { CHANGE_KINDS, type ChangeKind } from '../../../contract/ops-changes';

interface FilterProps<V extends string> {
  label: string;
  value: V | '';
  values: readonly V[];
  optionLabel: (value: V) => string;
  onChange: (value: V | '') => void;
  sx?: SxProps;
}

/** A desk list's filter: one of `values` or any (''), each shown by `optionLabel`. */
export function OpsSelectFilter<V extends string>({
  label,
  value,
  values,
  optionLabel,
  onChange,
  sx = { minWidth: 180 },
}: FilterProps<V>) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as V | '')}
      sx={sx}
    >
      <MenuItem value="">{t('ops.common.any')}</MenuItem>
      {values.map((option) => (
        <MenuItem key={option} value={option}>
          {optionLabel(option)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A desk list's filter by kind of record (branches, agents, …). */
export function OpsKindFilter(props: Pick<FilterProps<ChangeKind>, 'value' | 'onChange' | 'sx'>) {
  const { t } = useTranslation();
  return (
    <OpsSelectFilter
      label={t('ops.changes.kind')}
      values={CHANGE_KINDS}
      optionLabel={(kind) => t(`ops.kinds.${kind}`)}
      {...props}
    />
  );
}
