import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { currencyLabel } from '../../../lib/currency';
import { useReceivingCountries } from '../api/get-receiving-countries';

/** The served receiving countries by code (GET /v1/receiving-countries): name and payout currency, once loaded. */
export function useServedCountry() {
  const countries = useReceivingCountries();
  return (code: string) => countries.data?.data.find((c) => c.code === code);
}

/** One line under a screen's heading: the currency the beneficiary is paid in. */
export function PayoutCurrency({ receivingCountry }: { receivingCountry: string }) {
  const { t, i18n } = useTranslation();
  const currency = useServedCountry()(receivingCountry)?.currency;
  // Until the countries are loaded, the line keeps its place: the screen below it does not move when it comes.
  if (!currency)
    return (
      <Typography variant="body2" aria-hidden sx={{ visibility: 'hidden' }}>
        &nbsp;
      </Typography>
    );
  return (
    <Typography variant="body2" data-testid="payout-currency">
      {t('common.paidIn', { currency: currencyLabel(currency, i18n.language) })}
    </Typography>
  );
}
