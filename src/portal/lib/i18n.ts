import i18n from 'i18next';
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

// English, the reference and fallback, is in the first load, without its `ops` block (vite.config.ts,
// tellerCatalogue: the desk adds it when it opens, ops-i18n.ts). Every other language is its own small chunk,
// fetched before the first render when it is the teller's language, or when chosen in the app bar: a
// Spanish-speaking teller's first load carries one catalogue, not every one (docs/compression-and-caching.md).
const english = import.meta.glob<Messages>('../locales/en.json', { eager: true, import: 'default', query: '?teller' });
const others = import.meta.glob<Messages>(['../locales/*.json', '!../locales/en.json'], {
  import: 'default',
  query: '?teller',
});
// Each catalogue's own name for its language (`?name`: that one string, not the file).
const names = import.meta.glob<string>('../locales/*.json', { eager: true, import: 'default', query: '?name' });
const codeOf = (file: string) => /([\w-]+)\.json$/.exec(file)![1];

/** The interface languages, by code, each with its own name for the language switch. */
export const LANGUAGES = Object.entries(names)
  .map(([file, name]) => ({ code: codeOf(file), name }))
  // Codes are ASCII: compared as strings, without localeCompare, whose first call builds a collator on the
  // portal's start.
  .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

/** Where the teller's explicit choice is kept; without one, the browser's languages decide. */
export const LANGUAGE_STORAGE_KEY = 'rpl.language';

// Blocks a lazy part of the portal adds to every catalogue (the desk's `ops`), kept here for the catalogues
// not fetched yet: they are merged in when one arrives.
const extraBlocks = new Map<string, Record<string, unknown>[]>();

/** Adds `blocks` to `code`'s catalogue, now if it is loaded, else when it is. */
export function addCatalogueBlocks(code: string, blocks: Record<string, unknown>) {
  extraBlocks.set(code, [...(extraBlocks.get(code) ?? []), blocks]);
  if (i18n.hasResourceBundle(code, 'translation')) i18n.addResourceBundle(code, 'translation', blocks, true, true);
}

// i18next's backend interface, reading the bundled chunks: `changeLanguage('es')` fetches es first.
const bundledCatalogues = {
  type: 'backend' as const,
  init() {},
  read(language: string, _namespace: string, done: (error: unknown, messages: unknown) => void) {
    const load =
      language === 'en' ? () => Promise.resolve(Object.values(english)[0]) : others[`../locales/${language}.json`];
    if (!load) return done(null, {});
    load().then(
      (messages) => {
        let merged = messages as Record<string, unknown>;
        for (const blocks of extraBlocks.get(language) ?? []) merged = { ...merged, ...blocks };
        done(null, merged);
      },
      (error: unknown) => done(error, null),
    );
  },
};

/**
 * The teller's choice made in the app bar, else the first of the browser's languages (what it sends as
 * Accept-Language) that has a catalogue: es-MX, es-419… find es.json; none found, English. Nothing is stored on
 * detection: only a choice made in the app bar is remembered (chooseLanguage). Eight lines instead of
 * i18next-browser-languagedetector, whose other sources (cookie, query, path, …) the portal does not use.
 */
function detectLanguage(): string {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // storage blocked: the browser's languages decide
  }
  const codes = new Set(LANGUAGES.map((l) => l.code));
  const wanted = [stored, ...(navigator.languages ?? [navigator.language])].filter((l): l is string => !!l);
  return wanted.map((l) => l.toLowerCase().split('-')[0]).find((code) => codes.has(code)) ?? 'en';
}

/** Resolves once the teller's language is loaded: the portal renders after it, with no flash of English. */
export const i18nReady = i18n
  .use(initReactI18next)
  .use(bundledCatalogues)
  .init({
    lng: detectLanguage(),
    resources: { en: { translation: Object.values(english)[0] } },
    partialBundledLanguages: true,
    supportedLngs: LANGUAGES.map((l) => l.code),
    load: 'languageOnly',
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // React escapes what it renders
    // Nothing suspends: the first render waits for i18nReady; changeLanguage fetches before it switches.
    react: { useSuspense: false },
    initAsync: false,
  })
  .then(
    () => undefined,
    () => undefined, // a catalogue that could not be fetched: English, the fallback, is bundled
  );

const regionNames = new Map<string, Intl.DisplayNames>();
/**
 * A country's name in the language ("MX" → "México" in Spanish); a value that is not an ISO 3166-1 code (a name
 * already) is returned as it is.
 */
function countryNameIn(language: string, value: unknown): string {
  const text = String(value ?? '');
  if (!/^[A-Z]{2}$/.test(text)) return text;
  let names = regionNames.get(language);
  if (!names) regionNames.set(language, (names = new Intl.DisplayNames([language], { type: 'region' })));
  try {
    return names.of(text) ?? text;
  } catch {
    return text;
  }
}
// `{{country, country}}` in a message: the country's name in the interface language, never its code, whatever
// the screen passes (docs/i18n.md).
i18n.services.formatter?.add('country', (value: unknown, language: string | undefined) =>
  countryNameIn(language ?? currentLanguage(), value),
);

/** The language in use, reduced to one of LANGUAGES (i18n.language may be the browser's es-419). */
export const currentLanguage = () => i18n.resolvedLanguage ?? 'en';

/** The switch in the app bar: this language from now on, in this browser. */
export function chooseLanguage(code: string) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    // storage blocked: the choice lasts until the page is closed
  }
  void i18n.changeLanguage(code); // fetches the catalogue first when it is not loaded yet
}

// Screen readers, spell checkers and the browser's own translation offer read the page's language here.
const markDocument = () => {
  document.documentElement.lang = currentLanguage();
  document.title = i18n.t('app.title');
};
i18n.on('languageChanged', markDocument);
if (i18n.isInitialized) markDocument();

/** A country's name in the teller's language, from its ISO code. */
export const countryName = (code: string) => countryNameIn(currentLanguage(), code);

// One formatter per language: building an Intl.NumberFormat costs far more than using one, and a results page
// formats a number in every row.
const numberFormats = new Map<string, Intl.NumberFormat>();
/** A number in the teller's language ("1,234" / "1.234"). */
export const formatNumber = (value: number) => {
  const language = currentLanguage();
  let format = numberFormats.get(language);
  if (!format) numberFormats.set(language, (format = new Intl.NumberFormat(language)));
  return format.format(value);
};

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

/**
 * An invalid parameter's message from the API: translated when it is one of the contract's common rules; in
 * another language than English an unknown rule becomes "this value is not accepted" rather than English.
 */
export function translateParameterMessage(message: string): string {
  const translated = translateRule(message);
  if (translated !== message || currentLanguage() === 'en') return translated;
  return i18n.t('teller.problems.parameterRefused');
}
