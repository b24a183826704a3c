import { createRequire } from 'node:module';

// Razorpay's maintained `ifsc` package bundles the IFSCs the RBI has issued and the bank names (offline,
// ~1.5 MB of JSON). The shipped India extract holds 27 of ~1,500 banks, so for a well-formed IFSC we do not
// hold it tells whether the code is real and of which bank. Server side only: the portal never loads it.
// Loaded on first use, so a server that is never asked about an unknown IFSC does not pay for it.

const require = createRequire(import.meta.url);

interface IfscPackage {
  validate(code: string): boolean;
}

let loaded: { ifsc: IfscPackage; bankNames: Record<string, string>; sublets: Record<string, string>; customSublets: [string, string][] } | undefined;

function registry() {
  loaded ??= {
    ifsc: require('ifsc') as IfscPackage,
    bankNames: require('ifsc/src/banknames.json') as Record<string, string>,
    // IFSCs issued through a sponsor bank to a sub-member bank (a co-operative bank's branches under the
    // sponsor's prefix): the bank is the sub-member. custom-sublets.json keys are IFSCs or IFSC prefixes.
    sublets: require('ifsc/src/sublet.json') as Record<string, string>,
    customSublets: Object.entries(require('ifsc/src/custom-sublets.json') as Record<string, string>),
  };
  return loaded;
}

/** An IFSC the RBI issued: its bank's code and name; undefined when the list does not hold it. */
export function issuedIfscBank(ifsc: string): { bankCode: string; bankName: string | null } | undefined {
  const { ifsc: library, bankNames, sublets, customSublets } = registry();
  if (!library.validate(ifsc)) return undefined;
  const bankCode = sublets[ifsc] ?? customSublets.find(([prefix]) => ifsc.startsWith(prefix))?.[1] ?? ifsc.slice(0, 4);
  return { bankCode, bankName: bankNames[bankCode] ?? null };
}
