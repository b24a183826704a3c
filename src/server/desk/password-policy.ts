import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { canonicalAccountName, OPS_PASSWORD_MIN_LENGTH, opsPassword } from '../../contract/ops-auth';

// What an ops password must be (NIST SP 800-63B 3.1.1.2: length, and a check against commonly used and
// context-specific values, rather than composition rules): at least OPS_PASSWORD_MIN_LENGTH characters (the
// contract's opsPassword); not guessable by zxcvbn's model (its common-password and common-word dictionaries,
// keyboard rows, repeats, sequences, dates, with l33t and reversed forms, and the account name as a word of its
// own); and not the account name with a few characters around it. Every way a password is set goes through
// desk/accounts.ts, which calls this: the admin's routes and `npm run ops-user`.

/**
 * The zxcvbn score a password needs (0–4): 3 is "safely unguessable", about 10^8 guesses or more, which with a
 * scrypt hash per guess and the sign-in limit is out of reach online and costly offline.
 */
const MIN_SCORE = 3;

// Why zxcvbn scored a password low, in words (its own texts come with a language package).
const WARNINGS: Record<string, string> = {
  straightRow: 'it is a straight row of keys',
  keyPattern: 'it is a short keyboard pattern',
  simpleRepeat: 'it repeats one character',
  extendedRepeat: 'it repeats a short pattern',
  sequences: 'it is a sequence like abc or 6543',
  recentYears: 'it is built on a recent year',
  dates: 'it is built on a date',
  topTen: 'it is one of the most common passwords',
  topHundred: 'it is one of the most common passwords',
  common: 'it is a common password',
  similarToCommon: 'it is a common password with small changes',
  wordByItself: 'it is a single word',
  namesByThemselves: 'it is built on names',
  commonNames: 'it is built on common names',
  userInputs: 'it is built on the account name',
};

export class WeakPasswordError extends Error {
  constructor(readonly reason: string) {
    super(`The password ${reason}.`);
    this.name = 'WeakPasswordError';
  }
}

// Loaded at the first password set, once: the dictionaries are megabytes, and neither starting the server nor
// signing in needs them.
let checker: Promise<ZxcvbnFactory> | undefined;
const zxcvbn = () =>
  (checker ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([{ ZxcvbnFactory }, common]) =>
      new ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs }),
  ));

/** Why `password` may not be the password of `accountName` (words to follow "The password "), or null. */
export async function passwordWeakness(password: string, accountName: string): Promise<string | null> {
  const length = opsPassword.safeParse(password);
  if (!length.success) return length.error.issues[0].message;
  const name = canonicalAccountName(accountName);
  const folded = canonicalAccountName(password);
  const reversed = [...name].reverse().join('');
  // What is left once the name (or its reverse) is taken out must be a password on its own.
  if (folded.includes(name) || folded.includes(reversed)) {
    const rest = folded.split(name).join('').split(reversed).join('').trim();
    if (rest.length < OPS_PASSWORD_MIN_LENGTH) {
      return `must not be the account name with a few characters added (it needs ${OPS_PASSWORD_MIN_LENGTH} characters besides the name)`;
    }
  }
  const result = (await zxcvbn()).check(password, [name]);
  if (result.score >= MIN_SCORE) return null;
  const why = (result.feedback.warning && WARNINGS[result.feedback.warning]) ?? 'it would be found after few guesses';
  return `is too easy to guess: ${why}; a few unrelated words make a strong one`;
}

/** Throws WeakPasswordError when the password may not be set for the account. */
export async function checkPassword(password: string, accountName: string): Promise<void> {
  const reason = await passwordWeakness(password, accountName);
  if (reason !== null) throw new WeakPasswordError(reason);
}
