import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/i18n';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { BrowseResponse } from '../../../../contract';
import { DISTRICT_COUNTRY } from '../../../../contract/constants';

// Browse to find (issue #15): after the head office, a bank, then a state (Bangladesh: division), then a city
// (Bangladesh: district), each listed with its branch count; each choice narrows the table and is in the URL
// (bankCode, state, city).

const ALL = '';

export interface BrowseChoice {
  bankCode: string;
  state: string;
  city: string;
}

export function BrowseFacets({
  receivingCountry,
  facets,
  choice,
  onChoose,
  disabled,
}: {
  receivingCountry: string;
  facets: BrowseResponse['facets'] | undefined;
  choice: BrowseChoice;
  onChoose: (patch: Partial<BrowseChoice>) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const isBangladesh = receivingCountry === DISTRICT_COUNTRY;
  const banks = facets?.banks ?? [];
  // A bank code typed into the finder that is not one of the listed banks (a routing number) still narrows.
  const bankListed = banks.some((b) => b.bankCode === choice.bankCode);
  const states = facets?.states ?? [];
  const cities = facets?.cities ?? [];
  const count = (n: number) => ` — ${formatNumber(n)}`;
  // A list not open yet says why in its helper text, which must stay readable (WCAG contrast) though the list is
  // disabled.
  const helper = { formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } } };
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      role="group"
      aria-label={t('browse.group')}
      data-testid="browse-facets"
    >
      <TextField
        select
        size="small"
        label={t('browse.bank')}
        value={bankListed ? choice.bankCode : ALL}
        onChange={(event) => onChoose({ bankCode: event.target.value, state: '', city: '' })}
        disabled={disabled || banks.length === 0}
        sx={{ minWidth: 260, flex: 1 }}
        slotProps={helper}
        helperText={
          bankListed || !choice.bankCode
            ? t('browse.banks', { count: banks.length, formatted: formatNumber(banks.length) })
            : t('browse.typedCode', { code: choice.bankCode })
        }
      >
        <MenuItem value={ALL}>{t('browse.allBanks')}</MenuItem>
        {banks.map((bank) => (
          <MenuItem key={bank.bankCode} value={bank.bankCode} data-count={bank.count}>
            {`${bank.bankName} (${bank.bankCode})${count(bank.count)}`}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={isBangladesh ? t('browse.division') : t('browse.state')}
        value={choice.state}
        onChange={(event) => onChoose({ state: event.target.value, city: '' })}
        disabled={disabled || !choice.bankCode || (states.length === 0 && !choice.state)}
        sx={{ minWidth: 200, flex: 1 }}
        slotProps={helper}
        helperText={
          choice.bankCode ? t('browse.withBranches', { formatted: formatNumber(states.length) }) : t('browse.bankFirst')
        }
      >
        <MenuItem value={ALL}>{isBangladesh ? t('browse.allDivisions') : t('browse.allStates')}</MenuItem>
        {/* A state from a link or a hand-edited URL with no branches here still shows what narrows the table. */}
        {choice.state && !states.some((s) => s.code === choice.state) && (
          <MenuItem value={choice.state}>{`${choice.state}${count(0)}`}</MenuItem>
        )}
        {states.map((state) => (
          <MenuItem key={state.code} value={state.code} data-count={state.count}>
            {`${state.name}${count(state.count)}`}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={isBangladesh ? t('browse.district') : t('browse.city')}
        value={choice.city}
        onChange={(event) => onChoose({ city: event.target.value })}
        disabled={disabled || !choice.state || (cities.length === 0 && !choice.city)}
        sx={{ minWidth: 200, flex: 1 }}
        slotProps={helper}
        helperText={
          choice.state
            ? t('browse.withBranches', { formatted: formatNumber(cities.length) })
            : isBangladesh
              ? t('browse.divisionFirst')
              : t('browse.stateFirst')
        }
      >
        <MenuItem value={ALL}>{isBangladesh ? t('browse.allDistricts') : t('browse.allCities')}</MenuItem>
        {choice.city && !cities.some((c) => c.name === choice.city) && (
          <MenuItem value={choice.city}>{choice.city}</MenuItem>
        )}
        {cities.map((city) => (
          <MenuItem key={city.name} value={city.name} data-count={city.count}>
            {`${city.name}${count(city.count)}`}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
