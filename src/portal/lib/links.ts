import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../contract/constants';
import type { ChangeKind } from '../../contract/ops-changes';
import { recordKeyOf } from '../../contract/record-key';
import { withQuery } from './api-client';
import { paths } from './paths';

// Links from one screen into another, filled in: built here, so that a feature never imports another.

const ACCOUNT_TRANSFER_CODE = String(ACCOUNT_TRANSFER_TO_OTHER_BANK).padStart(2, '0');

/** The branch finder (delivery mode 04) for a head office, narrowed to a bank or branch code when given. */
export const branchFinderLink = (to: {
  receivingCountry: string;
  receivingAgentHeadOfficeCode: string;
  bankCode?: string;
}) =>
  withQuery(paths.branches, {
    receivingCountry: to.receivingCountry,
    deliveryMode: ACCOUNT_TRANSFER_CODE,
    receivingAgentHeadOfficeCode: to.receivingAgentHeadOfficeCode,
    bankCode: to.bankCode,
  });

/** The agent search of a country and mode, searching for a name. */
export const agentSearchLink = (to: { receivingCountry: string; deliveryMode: string; search: string }) =>
  withQuery(paths.agents, to);

/** The code lookup screen for a code, keeping the app bar's receiving country and delivery mode. */
export const codeLookupLink = (code: string, selection: { receivingCountry?: string; deliveryMode?: string }) =>
  withQuery(paths.code, { code, ...selection });

/** A published record's page inside the operations desk (its routes are nested under /ops): `key` as answered. */
export const recordPath = (kind: ChangeKind, key: string) => `/records/${kind}/${encodeURIComponent(key)}`;

/** A record key as a person reads it: its parts decoded, joined by `separator` (`IN ABHY0065001`). */
export function readableKey(key: string, separator: string): string {
  try {
    return key
      .split('~')
      .map((part) => decodeURIComponent(part))
      .join(separator);
  } catch {
    return key;
  }
}

/** The same page from a teller screen, by the record's natural key (record-key.ts). */
export const deskRecordLink = (kind: ChangeKind, parts: readonly string[]) =>
  `${paths.ops}${recordPath(kind, recordKeyOf(parts))}`;
