import { createRequire } from 'node:module';

// Razorpay's maintained `ifsc` package bundles the IFSCs the RBI has issued and the bank names (offline). The
// shipped India extract holds a few of India's banks, so for a well-formed IFSC we do not hold it tells whether
// the code is real and of which bank. Server side only, loaded on first use.
//
// Its data only: the package's entry point also loads its online client and the `request` library under it, in
// every serving thread, for code we never call. `isIssued` below is the package's own `validate`, over its file.

const require = createRequire(import.meta.url);

/** IFSC.json: by bank code, the branch codes issued (a number when the code is all digits, else the string). */
type IssuedCodes = Record<string, (number | string)[]>;

let loaded:
  | {
      issued: IssuedCodes;
      bankNames: Record<string, string>;
      sublets: Record<string, string>;
      customSublets: [string, string][];
    }
  | undefined;

function registry() {
  loaded ??= {
    issued: require('ifsc/src/IFSC.json') as IssuedCodes,
    bankNames: require('ifsc/src/banknames.json') as Record<string, string>,
    // IFSCs issued through a sponsor bank to a sub-member bank (a co-operative bank's branches under the
    // sponsor's prefix): the bank is the sub-member. custom-sublets.json keys are IFSCs or IFSC prefixes.
    sublets: require('ifsc/src/sublet.json') as Record<string, string>,
    customSublets: Object.entries(require('ifsc/src/custom-sublets.json') as Record<string, string>),
  };
  return loaded;
}

/** The `ifsc` package's validate(): 11 characters, a 0 fifth, the branch code listed under its bank. */
function isIssued(issued: IssuedCodes, code: string): boolean {
  if (code.length !== 11 || code[4] !== '0') return false;
  const bankCode = code.slice(0, 4).toUpperCase();
  const branchCode = code.slice(5).toUpperCase();
  if (!Object.hasOwn(issued, bankCode)) return false;
  return issued[bankCode].includes(/^\d+$/.test(branchCode) ? parseInt(branchCode, 10) : branchCode);
}

/** An IFSC the RBI issued: its bank's code and name; undefined when the list does not hold it. */
export function issuedIfscBank(ifsc: string): { bankCode: string; bankName: string | null } | undefined {
  const { issued, bankNames, sublets, customSublets } = registry();
  if (!isIssued(issued, ifsc)) return undefined;
  const bankCode = sublets[ifsc] ?? customSublets.find(([prefix]) => ifsc.startsWith(prefix))?.[1] ?? ifsc.slice(0, 4);
  return { bankCode, bankName: bankNames[bankCode] ?? null };
}

/** The name the RBI's list gives a four-letter IFSC bank code, or null when it lists no such bank. */
export function ifscBankName(bankCode: string): string | null {
  const { bankNames } = registry();
  return Object.hasOwn(bankNames, bankCode) ? bankNames[bankCode] : null;
}
