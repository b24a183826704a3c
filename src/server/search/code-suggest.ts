import { BANK_CODE_FORMATS, type CodeBank, type CodeNear, type CodeSuggestion } from '../../contract';
import { ifscBankName } from '../ifsc-registry';
import type { SearchIndex } from './search-index';

// A code with no match that is one character off a code the data set holds (a digit read wrong from a cheque,
// a letter typed twice, one left out, two swapped): the codes it could have been, and the bank its leading
// characters name. Every code one edit away is made and looked up in the index's hash tables (routing numbers,
// agent codes) and among its banks, so the cost is a few hundred look-ups whatever the size of the data set.

/** Characters a normalised code is made of (codePathParams: letters and digits, upper case). */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** At most this many suggestions are answered. */
const MAX_SUGGESTIONS = 5;

/** Every code one substitution, deletion, insertion or swap of two neighbours away, substitutions first. */
function oneEditAway(code: string): string[] {
  const variants = new Set<string>();
  for (let i = 0; i < code.length; i++)
    for (const c of ALPHABET) if (c !== code[i]) variants.add(code.slice(0, i) + c + code.slice(i + 1));
  for (let i = 0; i < code.length - 1; i++)
    if (code[i] !== code[i + 1]) variants.add(code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2));
  if (code.length > 1) for (let i = 0; i < code.length; i++) variants.add(code.slice(0, i) + code.slice(i + 1));
  for (let i = 0; i <= code.length; i++) for (const c of ALPHABET) variants.add(code.slice(0, i) + c + code.slice(i));
  variants.delete(code);
  return [...variants];
}

/**
 * The bank a branch code's leading characters name, for each country whose branch code format the code fits
 * (an IFSC's first four letters, a Bangladesh routing number's first three digits): the data set's bank, else
 * (India) the name on the RBI's list, `held` false.
 */
function bankOfBranchCode(index: SearchIndex, code: string, countryName: (code: string) => string): CodeBank | null {
  const banks = index.extensionView.data.banks;
  for (const [country, format] of Object.entries(BANK_CODE_FORMATS)) {
    if (!format.branch?.test(code)) continue;
    let prefix = '';
    for (let length = 1; length < code.length && !prefix; length++)
      if (format.bank.test(code.slice(0, length))) prefix = code.slice(0, length);
    if (!prefix) continue;
    const held = banks.find((bank) => bank.country === country && bank.code === prefix);
    const bankName = held?.name ?? (country === 'IN' ? ifscBankName(prefix) : null);
    if (!bankName) continue;
    return {
      receivingCountry: country,
      receivingCountryName: countryName(country),
      bankCode: prefix,
      bankName,
      held: Boolean(held),
    };
  }
  return null;
}

/** The held codes one character off `code`: branches (same bank first), then agents, then banks. */
function codesOneOff(
  index: SearchIndex,
  code: string,
  countryName: (code: string) => string,
  bank: CodeBank | null,
): CodeSuggestion[] {
  const view = index.extensionView;
  const branches: CodeSuggestion[] = [];
  const agents: CodeSuggestion[] = [];
  const banks: CodeSuggestion[] = [];
  const heldBanks = new Map<string, { country: string; name: string }[]>();
  for (const b of view.data.banks) {
    const list = heldBanks.get(b.code) ?? [];
    if (!list.some((x) => x.country === b.country)) list.push({ country: b.country, name: b.name });
    heldBanks.set(b.code, list);
  }
  for (const variant of oneEditAway(code)) {
    for (const row of index.rowsWithCode('routing', variant)) {
      const branch = view.branchRecord(row, '');
      branches.push({
        code: variant,
        kind: 'branch',
        receivingCountry: branch.receivingCountry,
        receivingCountryName: countryName(branch.receivingCountry),
        bankCode: branch.bankCode,
        bankName: branch.bankName,
        name: branch.branchName,
        city: branch.city ?? null,
      });
    }
    for (const row of index.rowsWithCode('agentCode', variant)) {
      const agent = view.agentRecord(row);
      agents.push({
        code: variant,
        kind: 'agent',
        receivingCountry: agent.receivingCountry,
        receivingCountryName: countryName(agent.receivingCountry),
        bankCode: null,
        bankName: null,
        name: agent.agentName,
        city: agent.city ?? null,
      });
    }
    for (const held of heldBanks.get(variant) ?? [])
      banks.push({
        code: variant,
        kind: 'bank',
        receivingCountry: held.country,
        receivingCountryName: countryName(held.country),
        bankCode: variant,
        bankName: held.name,
        name: null,
        city: null,
      });
  }
  // The bank the code names is most likely right: its branches first (a stable sort keeps the edit order).
  if (bank) branches.sort((x, y) => Number(y.bankCode === bank.bankCode) - Number(x.bankCode === bank.bankCode));
  return [...branches, ...agents, ...banks].slice(0, MAX_SUGGESTIONS);
}

/** What a code with no match is near: the bank it names and the held codes one character off; null when neither. */
export function nearCode(index: SearchIndex, code: string, countryName: (code: string) => string): CodeNear | null {
  const bank = bankOfBranchCode(index, code, countryName);
  const suggestions = codesOneOff(index, code, countryName, bank);
  return bank || suggestions.length ? { bank, suggestions } : null;
}
