import { Fragment, useCallback } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { branchCodeName } from '../../../../contract/countries';
import type { RecordFields } from '../../../../contract/ops-records';
import { fieldLabel } from '../../../components/ui/ops-format';

/**
 * A record field's name in the interface language: the desk's own name for it, a branch's routing number by what
 * its country calls it (IFSC), else the teller screens' column name.
 */
export function useFieldLabel(country?: string | null) {
  const { t, i18n } = useTranslation();
  return useCallback(
    (name: string) => {
      if (name === 'routingNumber' && country) return branchCodeName(country, i18n.language);
      const key = `ops.records.fields.${name}`;
      return i18n.exists(key) ? String(t(key as never)) : fieldLabel(name);
    },
    [country, i18n, t],
  );
}

/** Names and values, stacked on a phone, side by side from a tablet up. */
export const fieldGridSx = {
  m: 0,
  display: 'grid',
  gridTemplateColumns: { xs: '1fr', sm: 'minmax(10em, auto) 1fr' },
  columnGap: 2,
  rowGap: { xs: 0, sm: 0.5 },
  '& > dt': { typography: 'body2', color: 'text.secondary', mt: { xs: 1, sm: 0 } },
  '& > dd': { typography: 'body2', m: 0, overflowWrap: 'anywhere', position: 'relative' },
} as const;

/** Every field of a record as served, in its order; a field it does not hold says so. */
export function RecordFieldList({ fields, testId }: { fields: RecordFields; testId?: string }) {
  const { t } = useTranslation();
  const label = useFieldLabel(fields.country);
  return (
    <Box component="dl" sx={fieldGridSx} data-testid={testId}>
      {Object.entries(fields).map(([name, value]) => (
        <Fragment key={name}>
          <dt>{label(name)}</dt>
          <dd data-field={name}>
            {value === null || value === '' ? (
              <Box component="span" sx={{ color: 'text.secondary' }}>
                {t('ops.records.notHeld')}
              </Box>
            ) : (
              value
            )}
          </dd>
        </Fragment>
      ))}
    </Box>
  );
}
