import {
  ACCOUNT_TRANSFER_TO_OTHER_BANK,
  otherPlaceNames,
  type AgentSuggestionsQuery,
  type BranchSuggestionsQuery,
  type SearchSuggestion,
  type SuggestionField,
  type SuggestionKind,
  type SuggestionsResponse,
} from '../../contract';
import type { SearchIndex } from './search-index';

// Help for an empty answer: the searches close to the one asked that find rows, each tried on the index before it
// is offered (its count is the count that search finds). Candidates come from the index's own words: the same
// word in the case the data writes it, another name of a place (contract/place-aliases.ts), a word one or two
// edits away; for the agent list of delivery mode 04, the "[Bank Name], [Branch Name]" pattern. Failing those, a
// filter left out when that alone finds rows.

/** Folded for comparison: lower case, accents removed. */
export const foldWord = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const WORD = /[\p{L}\p{N}]+/gu;
const MAX_SUGGESTIONS = 3;
const MAX_CANDIDATES = 60;
const OPTIONS_PER_WORD = 3;
const KIND_ORDER: Record<SuggestionKind, number> = { case: 0, alias: 1, spelling: 2, pattern: 3, filter: 4 };

/** A country's words of one kind of text: folded word → the spellings the data writes it in, with their counts. */
type Vocabulary = Map<string, Map<string, number>>;
type VocabularyName = 'agentNames' | 'bankNames' | 'branchNames' | 'addr1' | 'addr2' | 'district';

const vocabularies = new WeakMap<SearchIndex, Map<string, Vocabulary>>();

function addWords(vocabulary: Vocabulary, text: string | null) {
  if (!text) return;
  for (const [word] of text.matchAll(WORD)) {
    const folded = foldWord(word);
    let forms = vocabulary.get(folded);
    if (!forms) vocabulary.set(folded, (forms = new Map()));
    forms.set(word, (forms.get(word) ?? 0) + 1);
  }
}

/** The words of one kind of text of a country, made once per index and kept with it. */
function vocabularyOf(index: SearchIndex, country: string, name: VocabularyName): Vocabulary {
  let kept = vocabularies.get(index);
  if (!kept) vocabularies.set(index, (kept = new Map()));
  const key = `${country}\u0000${name}`;
  const found = kept.get(key);
  if (found) return found;
  const vocabulary: Vocabulary = new Map();
  const { data, tables } = index.extensionView;
  if (name === 'agentNames') {
    for (const office of data.offices) {
      if (office.country !== country) continue;
      addWords(vocabulary, office.name);
      for (let row = office.agentStart; row < office.agentEnd; row++)
        addWords(vocabulary, tables.agentName.orNull(data.agents.name[row]));
    }
  } else if (name === 'bankNames') {
    for (const bank of data.banks) if (bank.country === country) addWords(vocabulary, bank.name);
    for (const office of data.offices) if (office.country === country) addWords(vocabulary, office.name);
  } else {
    const b = data.branches;
    const [column, table] =
      name === 'branchNames'
        ? [b.branchName, tables.branchName]
        : name === 'addr1'
          ? [b.addr1, tables.addr1]
          : name === 'addr2'
            ? [b.addr2, tables.addr2]
            : [b.district, tables.district];
    for (let row = 0; row < b.count; row++)
      if (data.banks[b.bank[row]].country === country) addWords(vocabulary, table.orNull(column[row]));
  }
  kept.set(key, vocabulary);
  return vocabulary;
}

/** Optimal string alignment distance (an adjacent swap is one edit), or max + 1 once it must exceed max. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/** The spelling the data uses most for a folded word. */
const commonest = (forms: Map<string, number>) =>
  [...forms].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0][0];

/** A word written in the letter case of the typed one (for the case-insensitive filters). */
function inCaseOf(typed: string, word: string): string {
  if (typed === typed.toUpperCase()) return word.toUpperCase();
  if (typed === typed.toLowerCase()) return word.toLowerCase();
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

interface WordOption {
  text: string;
  kind: Exclude<SuggestionKind, 'filter' | 'pattern'>;
}

/** Other words the typed one may have meant, the likeliest first. */
function wordOptions(word: string, vocabulary: Vocabulary, country: string, caseSensitive: boolean): WordOption[] {
  const folded = foldWord(word);
  const options: WordOption[] = [];
  const write = (typed: string, forms: Map<string, number>) =>
    caseSensitive ? commonest(forms) : inCaseOf(typed, commonest(forms));
  const forms = vocabulary.get(folded);
  if (forms && caseSensitive && !forms.has(word))
    for (const [form] of [...forms].sort((x, y) => y[1] - x[1]).slice(0, 2)) options.push({ text: form, kind: 'case' });
  for (const alias of otherPlaceNames(country, word)) {
    const aliasForms = vocabulary.get(foldWord(alias));
    if (aliasForms) options.push({ text: write(word, aliasForms), kind: 'alias' });
  }
  if (!forms && options.length === 0 && folded.length >= 3) {
    const max = folded.length <= 5 ? 1 : 2;
    const close: [string, number, number][] = [];
    for (const [candidate, candidateForms] of vocabulary) {
      if (Math.abs(candidate.length - folded.length) > max || candidate.length < 3) continue;
      const distance = editDistance(folded, candidate, max);
      if (distance <= max) close.push([candidate, distance, [...candidateForms.values()].reduce((s, n) => s + n, 0)]);
    }
    close.sort((x, y) => x[1] - y[1] || y[2] - x[2]);
    for (const [candidate] of close.slice(0, OPTIONS_PER_WORD))
      options.push({ text: write(word, vocabulary.get(candidate)!), kind: 'spelling' });
  }
  return options.slice(0, OPTIONS_PER_WORD);
}

interface Candidate {
  text: string;
  kind: SuggestionKind;
  changed: number;
}

/** The text with some of its words replaced: each combination of the words' options (bounded), not the text itself. */
function textCandidates(text: string, vocabulary: Vocabulary, country: string, caseSensitive: boolean): Candidate[] {
  const words = [...text.matchAll(WORD)].map((m) => ({ word: m[0], at: m.index }));
  const options = words.map((w) => wordOptions(w.word, vocabulary, country, caseSensitive));
  let combos: { parts: (WordOption | null)[] }[] = [{ parts: [] }];
  for (const choices of options) {
    const next: typeof combos = [];
    for (const combo of combos)
      for (const choice of [null, ...choices])
        if (next.length < MAX_CANDIDATES * 4) next.push({ parts: [...combo.parts, choice] });
    combos = next;
  }
  const candidates: Candidate[] = [];
  for (const { parts } of combos) {
    const chosen = parts.filter((p): p is WordOption => p !== null);
    if (chosen.length === 0) continue;
    let out = '';
    let from = 0;
    words.forEach((w, i) => {
      out += text.slice(from, w.at) + (parts[i]?.text ?? w.word);
      from = w.at + w.word.length;
    });
    out += text.slice(from);
    const kind = chosen.reduce<SuggestionKind>((k, p) => (KIND_ORDER[p.kind] > KIND_ORDER[k] ? p.kind : k), 'case');
    candidates.push({ text: out, kind, changed: chosen.length });
  }
  if (caseSensitive)
    for (const whole of [text.toUpperCase(), text.toLowerCase(), text.replace(/\p{L}+/gu, (w) => inCaseOf('Aa', w))])
      if (whole !== text) candidates.push({ text: whole, kind: 'case', changed: words.length });
  return candidates
    .sort((x, y) => KIND_ORDER[x.kind] - KIND_ORDER[y.kind] || x.changed - y.changed)
    .slice(0, MAX_CANDIDATES);
}

/** Tries the candidates in order; the first few that find rows, each once. */
function firstFinding(
  candidates: { kind: SuggestionKind; changes: SearchSuggestion['changes'] }[],
  count: (changes: SearchSuggestion['changes']) => number,
): SearchSuggestion[] {
  const seen = new Set<string>();
  const found: SearchSuggestion[] = [];
  for (const candidate of candidates) {
    const key = JSON.stringify(candidate.changes);
    if (seen.has(key)) continue;
    seen.add(key);
    const totalItems = count(candidate.changes);
    if (totalItems > 0) found.push({ ...candidate, totalItems });
    if (found.length >= MAX_SUGGESTIONS) break;
  }
  return found.sort((x, y) => KIND_ORDER[x.kind] - KIND_ORDER[y.kind]);
}

function answer(totalItems: number, suggestions: SearchSuggestion[]): SuggestionsResponse {
  if (totalItems > 0) return { totalItems, cause: null, filter: null, suggestions: [] };
  const first = suggestions[0];
  const filter = first?.kind === 'filter' ? (Object.keys(first.changes)[0] as SuggestionField) : null;
  return { totalItems, cause: first?.kind ?? 'none', filter, suggestions };
}

/** The agent list (GET /v1/agents): why a search finds nothing, and the searches near it that find rows. */
export function agentSuggestions(index: SearchIndex, query: AgentSuggestionsQuery): SuggestionsResponse {
  const count = (changes: SearchSuggestion['changes']) => {
    const state = changes.state === '' ? undefined : (changes.state ?? query.state);
    const search = changes.search ?? query.search;
    return index.agents({ ...query, state, search, pageNumber: 1, pageSize: 1 }).pagination.totalItems;
  };
  const totalItems = count({});
  const search = query.search?.trim();
  if (totalItems > 0 || !search) return answer(totalItems, []);
  const country = query.receivingCountry;
  const candidates: { kind: SuggestionKind; changes: SearchSuggestion['changes'] }[] = [];
  if (query.deliveryMode === ACCOUNT_TRANSFER_TO_OTHER_BANK) {
    const banks = vocabularyOf(index, country, 'bankNames');
    const branches = vocabularyOf(index, country, 'branchNames');
    const comma = search.indexOf(',');
    const fix = (text: string, vocabulary: Vocabulary) => [
      { text, kind: 'case' as SuggestionKind, changed: 0 },
      ...textCandidates(text, vocabulary, country, true),
    ];
    const splits: [string, string, boolean][] = [];
    if (comma >= 0) splits.push([search.slice(0, comma).trim(), search.slice(comma + 1).trim(), false]);
    else {
      const words = search.split(/\s+/);
      for (let i = 1; i < words.length; i++) splits.push([words.slice(0, i).join(' '), words.slice(i).join(' '), true]);
    }
    const pairs: Candidate[] = [];
    for (const [bank, branch, pattern] of splits)
      for (const b of fix(bank, banks).slice(0, 8))
        for (const r of fix(branch, branches).slice(0, 8)) {
          if (!pattern && b.changed + r.changed === 0) continue;
          const kind = [b.kind, r.kind].reduce(
            (k, x) => (KIND_ORDER[x] > KIND_ORDER[k] ? x : k),
            pattern ? 'pattern' : 'case',
          );
          pairs.push({ text: `${b.text}, ${r.text}`, kind, changed: b.changed + r.changed });
        }
    if (comma < 0) pairs.push(...textCandidates(search, new Map([...branches, ...banks]), country, true));
    pairs.sort((x, y) => KIND_ORDER[x.kind] - KIND_ORDER[y.kind] || x.changed - y.changed);
    candidates.push(...pairs.slice(0, MAX_CANDIDATES * 2).map((c) => ({ kind: c.kind, changes: { search: c.text } })));
  } else {
    const names = vocabularyOf(index, country, 'agentNames');
    candidates.push(
      ...textCandidates(search, names, country, true).map((c) => ({ kind: c.kind, changes: { search: c.text } })),
    );
  }
  let suggestions = firstFinding(candidates, count);
  if (suggestions.length === 0 && query.state)
    suggestions = firstFinding([{ kind: 'filter', changes: { state: '' } }], count);
  return answer(totalItems, suggestions);
}

const BRANCH_TEXTS: { field: 'bankName' | 'branchLocation' | 'address' | 'district'; vocabulary: VocabularyName }[] = [
  { field: 'bankName', vocabulary: 'bankNames' },
  { field: 'branchLocation', vocabulary: 'addr1' },
  { field: 'address', vocabulary: 'addr2' },
  { field: 'district', vocabulary: 'district' },
];

/** The bank branches (GET /v1/banks/branches): why a search finds nothing, and the searches near it that find rows. */
export function branchSuggestions(index: SearchIndex, query: BranchSuggestionsQuery): SuggestionsResponse {
  const count = (changes: SearchSuggestion['changes']) => {
    const search = { ...query, pageNumber: 1, pageSize: 1 };
    for (const [field, value] of Object.entries(changes) as [keyof typeof changes, string][])
      if (field !== 'search' && field !== 'state') search[field] = value === '' ? undefined : value;
    return index.branches(search).pagination.totalItems;
  };
  const totalItems = count({});
  if (totalItems > 0) return answer(totalItems, []);
  const country = query.receivingCountry;
  const candidates: { kind: SuggestionKind; changes: SearchSuggestion['changes'] }[] = [];
  const best: SearchSuggestion['changes'] = {};
  for (const { field, vocabulary } of BRANCH_TEXTS) {
    const text = query[field]?.trim();
    if (!text) continue;
    const fixes = textCandidates(text, vocabularyOf(index, country, vocabulary), country, false);
    if (fixes[0]) best[field] = fixes[0].text;
    candidates.push(...fixes.map((c) => ({ kind: c.kind, changes: { [field]: c.text } })));
  }
  // Two filters each misspelt: both put right at once.
  if (Object.keys(best).length > 1) candidates.unshift({ kind: 'spelling', changes: best });
  candidates.sort((x, y) => KIND_ORDER[x.kind] - KIND_ORDER[y.kind]);
  let suggestions = firstFinding(candidates, count);
  // A filter that alone excludes every row, when another filter is left to search by.
  const present = BRANCH_TEXTS.map((t) => t.field).filter((field) => query[field]);
  if (suggestions.length === 0 && present.length + (query.bankCode ? 1 : 0) > 1)
    suggestions = firstFinding(
      present.map((field) => ({ kind: 'filter' as const, changes: { [field]: '' } })),
      count,
    );
  return answer(totalItems, suggestions);
}
