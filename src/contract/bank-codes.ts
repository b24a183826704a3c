// What a bank code or branch code looks like per receiving country, so the portal can say "not an IFSC"
// instead of only "no branches" (issue #14). The importer checks the rows themselves (row-schemas.ts).

export interface BankCodeFormat {
  bank: RegExp;
  bankDescription: string;
  branch?: RegExp;
  branchDescription?: string;
}

export const BANK_CODE_FORMATS: Readonly<Record<string, BankCodeFormat>> = {
  IN: {
    bank: /^[A-Z]{4}$/,
    bankDescription: 'a bank code of 4 letters',
    branch: /^[A-Z]{4}0[A-Z0-9]{6}$/,
    branchDescription: 'an IFSC (4 letters, 0, then 6 letters or digits)',
  },
  BD: {
    bank: /^\d{3}$/,
    bankDescription: 'a bank code of 3 digits',
    branch: /^\d{9}$/,
    branchDescription: 'a routing number of 9 digits',
  },
  NG: { bank: /^\d{3}$/, bankDescription: 'a CBN bank code of 3 digits' },
};

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
