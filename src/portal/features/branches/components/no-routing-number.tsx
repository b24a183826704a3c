import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

// Where a country's branches carry no routing number (Nigeria's published list gives none: a branch is known by
// its bank's CBN code and its name), the routing-number column is left out rather than filled with dashes, and
// this one sentence says why.

/** True when the rows are there and none of them has a routing number. */
export const noRoutingNumbers = (rows: readonly { routingNumber: string | null }[]) =>
  rows.length > 0 && rows.every((row) => !row.routingNumber);

/** The country's name in the interface language ("Nigeria"), never its code, for a sentence. */
function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function NoRoutingNumberNote({ receivingCountry, name }: { receivingCountry: string; name?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Typography variant="body2" color="text.secondary" data-testid="no-routing-number">
      {t('branches.noRoutingNumber', { country: name ?? countryName(receivingCountry, i18n.language) })}
    </Typography>
  );
}
