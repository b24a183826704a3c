import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { issuedIfscBank } from '../ifsc-registry';

const require = createRequire(import.meta.url);
// The package's own entry point (with its online client): what ifsc-registry.ts reimplements over its data.
const library = require('ifsc') as { validate(code: string): boolean };
const issued = require('ifsc/src/IFSC.json') as Record<string, (number | string)[]>;

/** Every 97th issued code of every bank, with the branch code as the RBI writes it (six characters). */
function sampleCodes(): string[] {
  const codes: string[] = [];
  for (const [bank, branches] of Object.entries(issued))
    for (let i = 0; i < branches.length; i += 97) {
      const branch = branches[i];
      codes.push(`${bank}0${typeof branch === 'number' ? String(branch).padStart(6, '0') : branch}`);
    }
  return codes;
}

describe("the issued-IFSC check answers as the ifsc package's validate()", () => {
  const codes = sampleCodes();

  it('for issued codes, their lower case, and near misses', () => {
    expect(codes.length).toBeGreaterThan(1000);
    const asked = codes.flatMap((code) => [
      code,
      code.toLowerCase(),
      `${code.slice(0, 10)}${code[10] === '9' ? '8' : '9'}`, // the last character changed
      `${code.slice(0, 4)}1${code.slice(5)}`, // a fifth character other than 0
      code.slice(0, 10), // too short
      `ZZZZ${code.slice(4)}`, // no such bank
    ]);
    const disagreements = asked.filter((code) => (issuedIfscBank(code) !== undefined) !== library.validate(code));
    expect(disagreements).toEqual([]);
    // Both say yes to the issued ones and no to the rest often enough for the comparison to mean something.
    expect(codes.every((code) => issuedIfscBank(code))).toBe(true);
    expect(asked.filter((code) => !library.validate(code)).length).toBeGreaterThan(codes.length * 3);
  });

  it('names the bank, the sub-member bank for a sublet code', () => {
    expect(issuedIfscBank('SBIN0000001')).toEqual({ bankCode: 'SBIN', bankName: 'State Bank of India' });
    const sublets = require('ifsc/src/sublet.json') as Record<string, string>;
    const [code, bank] = Object.entries(sublets).find(([ifsc]) => library.validate(ifsc))!;
    expect(issuedIfscBank(code)?.bankCode).toBe(bank);
  });
});
