import { COUNTRY_PROFILES } from './countries';

// What a bank code or branch code looks like per receiving country (the country profiles, countries.ts), so the
// portal can say "not an IFSC" instead of only "no branches". The importer checks the rows themselves
// against the same profiles (row-schemas.ts).

export interface BankCodeFormat {
  bank: RegExp;
  bankDescription: string;
  branch?: RegExp;
  branchDescription?: string;
}

/** The code formats of the countries whose profile has them, in profile order. */
export const BANK_CODE_FORMATS: Readonly<Record<string, BankCodeFormat>> = Object.fromEntries(
  Object.entries(COUNTRY_PROFILES).flatMap(([country, { codes }]) => (codes ? [[country, codes]] : [])),
);

/**
 * Why a code cannot be a bank or branch code of the country, or undefined when it can be (or the country has no rule).
 */
export function bankCodeProblem(receivingCountry: string, code: string): string | undefined {
  const format = BANK_CODE_FORMATS[receivingCountry];
  const upper = code.toUpperCase();
  if (!format || format.bank.test(upper) || format.branch?.test(upper)) return undefined;
  const expected = [format.bankDescription, format.branchDescription].filter(Boolean).join(' or ');
  return `"${code}" is not ${expected}.`;
}
