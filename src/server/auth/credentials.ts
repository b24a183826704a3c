import { createHash } from 'node:crypto';
import type { OpsRole } from '../../contract/ops-auth';

// What the server's credentials are made of, shared by the access plugin (API keys of the lookups and the
// desk), the desk's sign-in plugin, the rate limiter's key and the shell's `npm run api-key`.

/** An API key's SHA-256 (hex): what the key files hold and every lookup compares; the key itself is never kept. */
export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

export interface OpsApiKey {
  holder: string;
  roles: OpsRole[];
  /** Who issued it (scripts/api-key.ts writes the shell user), when the entry says. */
  issuedBy?: string;
}

/** An ops event for the audit trail (sign-in, failed sign-in, sign-out, account changes). */
export interface OpsAuthEvent {
  actor: string;
  via: string;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown> | null;
}
