import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Ops account passwords, hashed with scrypt (node:crypto; RFC 7914), memory-hard: each guess costs an
// attacker 128 · N · r bytes of memory (32 MiB with N = 2^15, r = 8) as well as time. N = 2^15, r = 8, p = 1
// is the cost OWASP's password storage cheat sheet lists for scrypt at 32 MiB; each hash carries its own
// parameters and a random 16-byte salt (`scrypt$N$r$p$salt$hash`, base64url), so the cost can be raised later
// without invalidating stored hashes: a hash with older parameters still verifies. The derivation runs in
// libuv's thread pool, not on the event loop.

export const SCRYPT_PARAMETERS = { N: 2 ** 15, r: 8, p: 1, keyLength: 64, saltLength: 16 } as const;

const derive = (
  password: string,
  salt: Buffer,
  keyLength: number,
  options: Required<Pick<ScryptOptions, 'N' | 'r' | 'p'>>,
) =>
  new Promise<Buffer>((resolve, reject) =>
    // maxmem above 128 · N · r, which Node's 32 MiB default does not leave room for.
    scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem: 256 * options.N * options.r }, (e, key) =>
      e ? reject(e) : resolve(key),
    ),
  );

/** A new hash of `password`, with a fresh salt. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = SCRYPT_PARAMETERS;
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, keyLength, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; constant-time comparison. A malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0) || N > 2 ** 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (expected.length < 32) return false;
  const key = await derive(password, salt, expected.length, { N, r, p });
  return timingSafeEqual(key, expected);
}

// An unknown account name is checked against this hash, so a failed sign-in takes as long whether or not the
// account exists (no user enumeration by timing).
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(randomBytes(18).toString('base64url')));
