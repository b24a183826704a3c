import type { SxProps } from '@mui/material/styles';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { CHANGE_KINDS, type ChangeKind } from '../../../contract/ops-changes';

interface SelectProps<V extends string | number> {
  label: string;
  value: V | '';
  values: readonly V[];
  optionLabel: (value: V) => string;
  onChange: (value: V | '') => void;
  sx?: SxProps;
  /** "Any" ('') first, as a list's filter offers. */
  any?: boolean;
}

/** A desk select: one of `values`, each shown by `optionLabel`. */
export function OpsSelect<V extends string | number>({
  label,
  value,
  values,
  optionLabel,
  onChange,
  sx = { minWidth: 180 },
  any = false,
}: SelectProps<V>) {
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
      {any && <MenuItem value="">{t('ops.common.any')}</MenuItem>}
      {values.map((option) => (
        <MenuItem key={option} value={option}>
          {optionLabel(option)}
        </MenuItem>
      ))}
    </TextField>
  );
}

type FilterProps<V extends string> = Omit<SelectProps<V>, 'any'>;

/** A desk list's filter: one of `values` or any (''), each shown by `optionLabel`. */
export const OpsSelectFilter = <V extends string>(props: FilterProps<V>) => <OpsSelect any {...props} />;

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
