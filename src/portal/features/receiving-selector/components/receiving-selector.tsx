import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { ReceivingCountry } from '../../../../contract';
import { useReceivingSelection } from '../../../lib/url-state';
import { useDeliveryModes } from '../api/get-delivery-modes';
import { useReceivingCountries } from '../api/get-receiving-countries';

// Countries are searchable by name or ISO code ("bd" finds Bangladesh, "desh" too).
const filterCountries = createFilterOptions<ReceivingCountry>({
  stringify: (country) => `${country.code} ${country.name}`,
});

/** Receiving country and delivery mode: the choice that drives every screen, kept in the URL. */
export function ReceivingSelector() {
  const { t } = useTranslation();
  const { receivingCountry, deliveryMode, select } = useReceivingSelection();
  const countries = useReceivingCountries();
  const modes = useDeliveryModes();
  const country = countries.data?.data.find((c) => c.code === receivingCountry) ?? null;
  // Only the modes the country offers (India: account transfer only as 04).
  const offeredModes = (modes.data?.data ?? []).filter((mode) => !country || country.deliveryModes.includes(mode.code));
  const selectedMode = offeredModes.find((mode) => mode.code === deliveryMode || String(mode.value) === deliveryMode);

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ width: '100%', py: 1 }}>
      <Autocomplete
        sx={{ minWidth: 240, flex: { sm: '0 1 320px' } }}
        size="small"
        options={countries.data?.data ?? []}
        loading={countries.isPending}
        value={country}
        filterOptions={filterCountries}
        getOptionLabel={(option) => `${option.name} (${option.code})`}
        isOptionEqualToValue={(option, value) => option.code === value.code}
        noOptionsText={t('common.noOptions')}
        loadingText={t('common.loading')}
        openText={t('common.open')}
        closeText={t('common.close')}
        clearText={t('common.clear')}
        onChange={(_, next) => {
          if (!next) return select('', '');
          const keep = next.deliveryModes.find((code) => code === selectedMode?.code);
          select(next.code, keep ?? next.deliveryModes[0] ?? '');
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('selector.country')}
            placeholder={t('selector.countryPlaceholder')}
            error={Boolean(countries.error)}
            helperText={
              countries.error ? t('selector.countriesFailed', { message: countries.error.message }) : undefined
            }
          />
        )}
      />
      <FormControl size="small" sx={{ minWidth: 240 }} disabled={!country}>
        <InputLabel id="delivery-mode-label">{t('selector.deliveryMode')}</InputLabel>
        <Select
          labelId="delivery-mode-label"
          label={t('selector.deliveryMode')}
          value={selectedMode?.code ?? ''}
          onChange={(event) => select(receivingCountry, event.target.value)}
        >
          {offeredModes.map((mode) => (
            <MenuItem key={mode.code} value={mode.code}>
              {mode.code} · {mode.name}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
    </Stack>
  );
}
