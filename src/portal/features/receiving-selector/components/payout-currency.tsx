import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useReceivingCountries } from '../api/get-receiving-countries';

/** "Mexican Peso (MXN)" in the interface language; the code alone where the browser has no name for it. */
export function currencyLabel(code: string, language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'currency' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/** The served receiving country (GET /v1/receiving-countries): its name and payout currency, once loaded. */
export function useReceivingCountry(receivingCountry: string) {
  const countries = useReceivingCountries(receivingCountry !== '');
  return countries.data?.data.find((c) => c.code === receivingCountry);
}

/** One line under a screen's heading: the currency the beneficiary is paid in. */
export function PayoutCurrency({ receivingCountry }: { receivingCountry: string }) {
  const { t, i18n } = useTranslation();
  const currency = useReceivingCountry(receivingCountry)?.currency;
  if (!currency) return null;
  return (
    <Typography variant="body2" data-testid="payout-currency">
      {t('common.paidIn', { currency: currencyLabel(currency, i18n.language) })}
    </Typography>
  );
}
