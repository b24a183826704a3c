import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import type en from '../locales/en.json';

// The portal's interface languages: one JSON file per language in src/portal/locales, found here at build
// time, so adding a language is adding its file (named by its BCP 47 code, e.g. fr.json). English is the
// reference: its keys type-check every t() call, and a test holds every other file to the same keys.
// Texts the server writes (a problem's title and detail) stay in English; the portal's own texts are here.

type Messages = typeof en;

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages };
  }
}

const files = import.meta.glob<Messages>('../locales/*.json', { eager: true, import: 'default' });
const resources = Object.fromEntries(
  Object.entries(files).map(([file, messages]) => [/([\w-]+)\.json$/.exec(file)![1], { translation: messages }]),
);

/** The interface languages, by code, each with its own name for the language switch. */
export const LANGUAGES = Object.entries(resources)
  .map(([code, { translation }]) => ({ code, name: translation.language.name }))
  .sort((a, b) => a.code.localeCompare(b.code));

/** Where the teller's explicit choice is kept; without one, the browser's languages decide. */
export const LANGUAGE_STORAGE_KEY = 'rpl.language';

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources,
    supportedLngs: LANGUAGES.map((l) => l.code),
    // es-MX, es-US… find es.json; a language without a file falls back to English.
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // React escapes what it renders
    // The teller's choice first, then the browser's languages (what it sends as Accept-Language). Nothing is
    // cached on detection: only a choice made in the app bar is remembered (chooseLanguage).
    detection: { order: ['localStorage', 'navigator'], lookupLocalStorage: LANGUAGE_STORAGE_KEY, caches: [] },
    // The resources are bundled: ready before the first render, no flash of keys.
    initAsync: false,
  });

/** The language in use, reduced to one of LANGUAGES (i18n.language may be the browser's es-419). */
export const currentLanguage = () => i18n.resolvedLanguage ?? 'en';

/** The switch in the app bar: this language from now on, in this browser. */
export function chooseLanguage(code: string) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    // storage blocked: the choice lasts until the page is closed
  }
  void i18n.changeLanguage(code);
}

// Screen readers, spell checkers and the browser's own translation offer read the page's language here.
const markDocument = () => {
  document.documentElement.lang = currentLanguage();
  document.title = i18n.t('app.title');
};
i18n.on('languageChanged', markDocument);
if (i18n.isInitialized) markDocument();

/** A number in the teller's language ("1,234" / "1.234"). */
export const formatNumber = (value: number) => new Intl.NumberFormat(currentLanguage()).format(value);

export { i18n };

// The contract's validation messages (src/contract) are English and shared with the API's problem answers;
// the forms show them in the teller's language when they are one of these rules, as they are otherwise.
const RULES: { pattern: RegExp; translate: (match: RegExpExecArray) => string }[] = [
  {
    pattern: /^must be at most (\d+) characters$/,
    translate: (m) => i18n.t('validation.tooLong', { max: formatNumber(Number(m[1])) }),
  },
  { pattern: /^must not contain control characters$/, translate: () => i18n.t('validation.controlCharacters') },
  { pattern: /^is required\b/, translate: () => i18n.t('validation.required') },
  {
    pattern: /^must be two upper-case letters followed by four upper-case letters or digits$/,
    translate: () => i18n.t('validation.financialIdFormat'),
  },
];

/** A contract rule's message in the interface language (unknown messages are returned as they are). */
export function translateRule(message: string | undefined): string {
  if (!message) return '';
  for (const rule of RULES) {
    const match = rule.pattern.exec(message);
    if (match) return rule.translate(match);
  }
  return message;
}
