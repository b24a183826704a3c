import { useTranslation } from 'react-i18next';
import type { DeliveryMode, ReceivingCountry } from '../../../../contract';
import { useDeliveryModes } from '../api/get-delivery-modes';
import { useReceivingCountries } from '../api/get-receiving-countries';

/** The catalogue's mode that a URL value names: its code ("04") or its number ("4"). */
export const modeNamedBy = (modes: DeliveryMode[], value: string) =>
  modes.find((mode) => mode.code === value || String(mode.value) === value);

/**
 * What a country offers, split against the delivery-mode catalogue (GET /v1/types): the offered modes and the
 * ones it does not offer, both in catalogue order. Derived from the reference data, never from a list per country.
 */
export function splitModes(country: ReceivingCountry, modes: DeliveryMode[]) {
  return {
    offered: modes.filter((mode) => country.deliveryModes.includes(mode.code)),
    missing: modes.filter((mode) => !country.deliveryModes.includes(mode.code)),
  };
}

/**
 * The sentence that says what a country offers, in the interface language: "India: account transfer to another
 * bank (04) only — no cash pickup, home delivery, account deposit, or mobile wallet."
 */
export function useOfferedModesSentence() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const words = (mode: DeliveryMode) =>
    i18n.exists(`teller.modeWords.${mode.code}`)
      ? t(`teller.modeWords.${mode.code}` as 'teller.modeWords.01')
      : mode.name.toLowerCase();
  const and = new Intl.ListFormat(language, { type: 'conjunction' });
  const or = new Intl.ListFormat(language, { type: 'disjunction' });
  return (countryName: string, country: ReceivingCountry, modes: DeliveryMode[]) => {
    const { offered, missing } = splitModes(country, modes);
    const values = {
      country: countryName,
      modes: and.format(offered.map((mode) => `${words(mode)} (${mode.code})`)),
      missing: or.format(missing.map(words)),
    };
    if (offered.length === 0) return t('teller.offered.none', values);
    if (missing.length === 0) return t('teller.offered.all', values);
    return offered.length === 1 ? t('teller.offered.only', values) : t('teller.offered.several', values);
  };
}

/**
 * Whether the app-bar selection can be looked up: `notOffered` when the URL names a delivery mode the country
 * does not offer (a link with mode 01 for India), so screens do not send a request the service refuses; the
 * selector says why and offers the way back.
 */
export function useSelectionOffered(
  receivingCountry: string,
  deliveryMode: string,
): 'offered' | 'notOffered' | 'unknown' | 'pending' {
  const countries = useReceivingCountries();
  const modes = useDeliveryModes();
  // Both lists are small and asked at start: a link waits for them rather than flash the service's refusal.
  if (receivingCountry && deliveryMode && (countries.isPending || modes.isPending)) return 'pending';
  const country = countries.data?.data.find((c) => c.code === receivingCountry);
  if (!country || !modes.data || !deliveryMode) return 'unknown';
  // A value that is no delivery mode at all goes to the service as written, whose 400 names it.
  const mode = modeNamedBy(modes.data.data, deliveryMode);
  if (!mode) return 'unknown';
  return country.deliveryModes.includes(mode.code) ? 'offered' : 'notOffered';
}
