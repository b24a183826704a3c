import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, i18n } from '../i18n';

// Adding a language is adding one file. Each file must say everything English says, with the same
// placeholders (a missing {{count}} would show a sentence without its number), and nothing English does not.

const dir = join(import.meta.dirname, '..', '..', 'locales');
const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
const flatten = (messages: Record<string, unknown>, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(messages).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[`${prefix}${key}`, value]]
        : Object.entries(flatten(value as Record<string, unknown>, `${prefix}${key}.`)),
    ),
  );
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)/g)].map((m) => m[1]).sort();
const tags = (text: string) => [...text.matchAll(/<(\w+)>/g)].map((m) => m[1]).sort();
const english = flatten(read('en.json'));
const files = readdirSync(dir).filter((file) => file.endsWith('.json'));

describe('the interface languages', () => {
  it('every locale file is offered by the language switch', () => {
    expect(LANGUAGES.map((l) => l.code).sort()).toEqual(files.map((f) => f.replace(/\.json$/, '')).sort());
    expect(LANGUAGES).toContainEqual({ code: 'es', name: 'Español' });
  });

  it.each(files.filter((f) => f !== 'en.json'))(
    '%s has every English message, with the same placeholders and tags',
    (file) => {
      const messages = flatten(read(file));
      expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        expect({ key, placeholders: placeholders(messages[key]) }).toEqual({ key, placeholders: placeholders(text) });
        expect({ key, tags: tags(messages[key]) }).toEqual({ key, tags: tags(text) });
        // Translated, not copied (a code-only message such as "{{from}}–{{to}} of {{count}}" may be close; an
        // acronym such as MICR or SWIFT is the same in every language).
        const acronym = /^[A-Z0-9]+$/.test(text);
        if (/[a-z]{4,}/i.test(text.replace(/\{\{[^}]+\}\}/g, '')) && !acronym && !['language.name'].includes(key))
          expect({ key, text: messages[key] }).not.toEqual({ key, text });
      }
    },
  );

  it('numbers and plurals follow the language', async () => {
    await i18n.changeLanguage('es');
    expect(i18n.t('results.branches', { count: 1, formatted: '1' })).toBe('1 sucursal');
    expect(i18n.t('results.branches', { count: 23456, formatted: new Intl.NumberFormat('es').format(23456) })).toBe(
      '23.456 sucursales',
    );
    await i18n.changeLanguage('en');
    expect(i18n.t('results.branches', { count: 1, formatted: '1' })).toBe('1 branch');
  });
});
