import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n';

// The Spanish glossary of docs/i18n.md held against the catalogues: one term per concept (no variant the
// glossary forbids), every term used, the same keys in English and Spanish, and country names, never codes,
// in sentences (every {{country}} goes through the `country` formatter).

const root = join(import.meta.dirname, '..', '..', '..', '..');
const localesDir = join(root, 'src', 'portal', 'locales');
const read = (file: string) => JSON.parse(readFileSync(join(localesDir, file), 'utf8')) as Record<string, unknown>;
const flatten = (messages: Record<string, unknown>, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(messages).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[`${prefix}${key}`, value]]
        : Object.entries(flatten(value as Record<string, unknown>, `${prefix}${key}.`)),
    ),
  );

/** The glossary table of docs/i18n.md: English | Spanish | never in Spanish (comma-separated, or —). */
function glossary(): { english: string; spanish: string; never: string[] }[] {
  const doc = readFileSync(join(root, 'docs', 'i18n.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Glossary'), doc.indexOf('\n## ', doc.indexOf('## Glossary') + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| English') && !line.startsWith('|---'))
    .map((line) => {
      const [english, spanish, never] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return { english, spanish, never: never === '—' ? [] : never.split(',').map((v) => v.trim()) };
    });
}

const english = flatten(read('en.json'));
const spanish = flatten(read('es.json'));
const lower = (text: string) => text.toLocaleLowerCase('es');
/** The variant as a whole phrase (not inside a longer word). */
const holds = (text: string, phrase: string) =>
  new RegExp(`(^|[^\\p{L}])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u').test(lower(text));

describe('the Spanish glossary (docs/i18n.md)', () => {
  const terms = glossary();

  it('is read from the manual, with the concepts every screen uses', () => {
    expect(terms.map((t) => t.english)).toEqual(
      expect.arrayContaining(['head office', 'delivery mode', 'branch', 'agent', 'payout network', 'routing number']),
    );
    expect(terms.find((t) => t.english === 'head office')?.spanish).toBe('casa matriz');
    expect(terms.find((t) => t.english === 'delivery mode')?.spanish).toBe('modalidad de entrega');
  });

  it('es.json writes each concept with its one term, never a variant', () => {
    const found = terms.flatMap(({ english: concept, never }) =>
      never.flatMap((variant) =>
        Object.entries(spanish)
          .filter(([, text]) => holds(text, lower(variant)))
          .map(([key, text]) => `${key}: "${text}" writes "${variant}" for ${concept}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('es.json uses every term of the glossary', () => {
    const all = Object.values(spanish).map(lower);
    for (const { spanish: term } of terms)
      expect(
        all.some((text) => text.includes(term)),
        term,
      ).toBe(true);
  });

  it('English and Spanish have the same keys', () => {
    expect(Object.keys(spanish).sort()).toEqual(Object.keys(english).sort());
  });

  it('every file names countries through the country formatter, never as a bare code', () => {
    for (const file of readdirSync(localesDir).filter((f) => f.endsWith('.json'))) {
      const bare = Object.entries(flatten(read(file))).filter(([, text]) => /\{\{\s*country\s*\}\}/.test(text));
      expect(
        bare.map(([key]) => `${file} ${key}`),
        'write {{country, country}}',
      ).toEqual([]);
    }
  });

  it('the country formatter writes the name in the interface language, and leaves a name as it is', async () => {
    await i18n.changeLanguage('es');
    expect(i18n.t('branches.notOffered', { country: 'MX' })).toBe(' México no la ofrece.');
    expect(i18n.t('teller.chooseMode', { country: 'México' })).toBe(
      'México ofrece varias modalidades de entrega: elija una.',
    );
    await i18n.changeLanguage('en');
    expect(i18n.t('branches.notOffered', { country: 'MX' })).toBe(' Mexico does not offer it.');
  });
});
