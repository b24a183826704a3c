import { currentLanguage, i18n } from '../../lib/i18n';

// Formatting shared by the operations screens: times in the reader's language, field names through the
// catalogue's column names (the desk's records use the same camelCase names as the teller screens' columns).

export const formatTime = (iso: string | null | undefined) =>
  iso
    ? new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
    : '';

/** A record's field name in the interface language, or the name itself when the catalogue has none. */
export function fieldLabel(name: string): string {
  const key = `columns.${name}`;
  return i18n.exists(key) ? String(i18n.t(key as never)) : name;
}
