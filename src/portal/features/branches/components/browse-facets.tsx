import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/i18n';
import Stack from '@mui/material/Stack';
import type { BrowseResponse } from '../../../../contract';
import { DISTRICT_COUNTRY } from '../../../../contract/constants';
import { ComboField } from '../../../components/ui/combo-field';

// Browse to find: after the head office, a bank, then a state (Bangladesh: division), then a city
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
  failed = false,
}: {
  receivingCountry: string;
  facets: BrowseResponse['facets'] | undefined;
  choice: BrowseChoice;
  onChoose: (patch: Partial<BrowseChoice>) => void;
  disabled: boolean;
  /** The lists could not be fetched: they say so, never "0 banks" as if it were the answer. */
  failed?: boolean;
}) {
  const { t } = useTranslation();
  const isBangladesh = receivingCountry === DISTRICT_COUNTRY;
  const banks = facets?.banks ?? [];
  // A bank code typed into the finder that is not one of the listed banks (a routing number) still narrows.
  const bankListed = banks.some((b) => b.bankCode === choice.bankCode);
  const states = facets?.states ?? [];
  const cities = facets?.cities ?? [];
  const count = (n: number) => ` — ${formatNumber(n)}`;
  // Until the lists are here (or when they failed) no count is shown: a count is only ever the answer's.
  const unknown = failed ? t('teller.listFailed') : !facets ? t('common.loading') : undefined;
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      role="group"
      aria-label={t('browse.group')}
      data-testid="browse-facets"
    >
      <ComboField
        name="browseBank"
        label={t('browse.bank')}
        value={bankListed ? choice.bankCode : ALL}
        options={banks.map((bank) => ({
          value: bank.bankCode,
          label: `${bank.bankName} (${bank.bankCode})`,
          count: count(bank.count),
        }))}
        onChange={(bankCode) => onChoose({ bankCode, state: '', city: '' })}
        disabled={disabled || banks.length === 0}
        sx={{ minWidth: 260, flex: 1 }}
        helperText={
          unknown ??
          (bankListed || !choice.bankCode
            ? t('browse.banks', { count: banks.length, formatted: formatNumber(banks.length) })
            : t('browse.typedCode', { code: choice.bankCode }))
        }
      />
      <ComboField
        name="browseState"
        label={isBangladesh ? t('browse.division') : t('browse.state')}
        value={choice.state}
        options={states.map((state) => ({ value: state.code, label: state.name, count: count(state.count) }))}
        onChange={(state) => onChoose({ state, city: '' })}
        disabled={disabled || !choice.bankCode || (states.length === 0 && !choice.state)}
        sx={{ minWidth: 200, flex: 1 }}
        helperText={
          !choice.bankCode
            ? t('browse.bankFirst')
            : (unknown ?? t('browse.withBranches', { formatted: formatNumber(states.length) }))
        }
      />
      <ComboField
        name="browseCity"
        label={isBangladesh ? t('browse.district') : t('browse.city')}
        value={choice.city}
        options={cities.map((city) => ({ value: city.name, label: city.name, count: count(city.count) }))}
        onChange={(city) => onChoose({ city })}
        disabled={disabled || !choice.state || (cities.length === 0 && !choice.city)}
        sx={{ minWidth: 200, flex: 1 }}
        helperText={
          !choice.state
            ? isBangladesh
              ? t('browse.divisionFirst')
              : t('browse.stateFirst')
            : (unknown ?? t('browse.withBranches', { formatted: formatNumber(cities.length) }))
        }
      />
    </Stack>
  );
}
