import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import { useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { ReceivingCountry } from '../../../../contract';
import { errorSentence } from '../../../lib/api-client';
import { useReceivingSelection } from '../../../lib/url-state';
import { useDeliveryModes } from '../api/get-delivery-modes';
import { useReceivingCountries } from '../api/get-receiving-countries';
import { ModeButtons, OfferedModes } from './offered-modes';

/** Country and delivery-mode names in the interface language: Intl for countries, the catalogue for
 * modes. */
export function useNames() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const regions = useMemo(() => new Intl.DisplayNames([language], { type: 'region', fallback: 'none' }), [language]);
  return {
    country: (country: ReceivingCountry) => regions.of(country.code) ?? country.name,
    mode: (mode: { code: string; name: string }) =>
      i18n.exists(`teller.deliveryModes.${mode.code}`)
        ? t(`teller.deliveryModes.${mode.code}` as 'teller.deliveryModes.01')
        : mode.name,
  };
}

/** Receiving country and delivery mode: the choice that drives every screen, kept in the URL. */
export function ReceivingSelector() {
  const { t } = useTranslation();
  const names = useNames();
  const { receivingCountry, deliveryMode, select } = useReceivingSelection();
  const countries = useReceivingCountries();
  const modes = useDeliveryModes();
  const country = countries.data?.data.find((c) => c.code === receivingCountry) ?? null;
  // Only the modes the country offers (India: account transfer only as 04).
  const offeredModes = (modes.data?.data ?? []).filter((mode) => !country || country.deliveryModes.includes(mode.code));
  const selectedMode = offeredModes.find((mode) => mode.code === deliveryMode || String(mode.value) === deliveryMode);
  // Searchable by name in the interface language, the API's English name, or ISO code ("bd", "desh", "méx").
  const filterCountries = createFilterOptions<ReceivingCountry>({
    stringify: (option) => `${option.code} ${names.country(option)} ${option.name}`,
  });
  // A country with several modes and none chosen: the teller is asked, never given 01 silently.
  const mustChooseMode = Boolean(country && !selectedMode && !deliveryMode && offeredModes.length > 1);

  return (
    // A landmark of its own: on a phone these fields sit below the app bar, outside its banner.
    <Stack role="search" aria-label={t('selector.label')} spacing={1} sx={{ width: '100%', py: 1 }}>
      {/* On a phone the mode has the whole width under the country: its name is never cut. */}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 1.5 }} sx={{ width: '100%' }}>
        <Autocomplete
          id="receiving-country"
          sx={{ flex: { xs: '1 1 auto', sm: '0 1 320px' }, minWidth: { xs: 0, sm: 240 } }}
          size="small"
          options={countries.data?.data ?? []}
          loading={countries.isPending}
          value={country}
          autoHighlight
          filterOptions={filterCountries}
          getOptionLabel={(option) => `${names.country(option)} (${option.code})`}
          isOptionEqualToValue={(option, value) => option.code === value.code}
          noOptionsText={t('common.noOptions')}
          loadingText={t('common.loading')}
          openText={t('common.open')}
          closeText={t('common.close')}
          clearText={t('common.clear')}
          onChange={(_, next) => {
            if (!next) return select('', '');
            const keep = next.deliveryModes.find((code) => code === selectedMode?.code);
            select(next.code, keep ?? (next.deliveryModes.length === 1 ? next.deliveryModes[0] : ''));
          }}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('selector.country')}
              placeholder={t('selector.countryPlaceholder')}
              error={Boolean(countries.error)}
              helperText={
                countries.error ? t('selector.countriesFailed', { message: errorSentence(countries.error) }) : undefined
              }
              slotProps={{
                ...params.slotProps,
                htmlInput: {
                  ...params.slotProps.htmlInput,
                  autoCapitalize: 'off',
                  autoCorrect: 'off',
                  spellCheck: false,
                },
              }}
            />
          )}
        />
        <FormControl
          size="small"
          sx={{ flex: { xs: '1 1 auto', sm: '0 1 300px' }, minWidth: { xs: 0, sm: 240 } }}
          disabled={!country}
          error={mustChooseMode}
        >
          <InputLabel id="delivery-mode-label">{t('selector.deliveryMode')}</InputLabel>
          <Select
            labelId="delivery-mode-label"
            label={t('selector.deliveryMode')}
            value={selectedMode?.code ?? ''}
            onChange={(event) => select(receivingCountry, event.target.value)}
          >
            {offeredModes.map((mode) => (
              <MenuItem key={mode.code} value={mode.code}>
                {mode.code} · {names.mode(mode)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      {mustChooseMode && country && (
        <Alert severity="warning" role="status" data-testid="choose-mode" sx={{ py: 0 }}>
          {t('teller.chooseMode', { country: names.country(country) })}{' '}
          <ModeButtons
            modes={offeredModes}
            label={(mode) => `${mode.code} · ${names.mode(mode)}`}
            onChoose={(code) => select(receivingCountry, code)}
            py={{ xs: 0.5, sm: 0 }}
          />
        </Alert>
      )}
      {receivingCountry && !(country && modes.data) && (
        // The sentence's place, kept until the lists it is made of are loaded: nothing below moves when it comes.
        <Typography
          variant="body2"
          aria-hidden
          sx={{
            visibility: 'hidden',
            minHeight: { xs: '4.29em', sm: 'auto' },
            display: deliveryMode ? { xs: 'none', sm: 'block' } : 'block',
          }}
        >
          &nbsp;
        </Typography>
      )}
      {country && modes.data && (
        <OfferedModes
          country={country}
          countryName={names.country(country)}
          modes={modes.data.data}
          deliveryMode={deliveryMode}
          modeName={names.mode}
          onChoose={(code) => select(receivingCountry, code)}
        />
      )}
    </Stack>
  );
}
