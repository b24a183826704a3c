// The contract's plain values: patterns, catalogs, limits. No zod here, so the portal's first screen can use
// them without loading the schemas (those arrive with the first form validation; src/portal/lib/use-url-form.ts).

import { DISTRICT_COUNTRIES } from './countries';

/** `x-fapi-financial-id`: the agent correspondent id, two upper-case letters then four letters or digits. */
export const FINANCIAL_ID_PATTERN = /^[A-Z]{2}[0-9A-Z]{4}$/;
/** `x-correlation-id` and `x-idempotency-key`: UUID-shaped (spec: \w{8}-\w{4}-\w{4}-\w{4}-\w{12}). */
export const UUID_SHAPED_PATTERN = /^\w{8}-\w{4}-\w{4}-\w{4}-\w{12}$/;

export const PAYOUT_TYPES = {
  N: 'Payout anywhere within the network',
  C: 'Payout anywhere within the country',
  O: 'Others (normal agent selection, other than anywhere payout)',
} as const;

/** Delivery mode 04 is served from bank branches (spec §1, §4.1 rule 1). */
export const ACCOUNT_TRANSFER_TO_OTHER_BANK = 4;
/**
 * The country whose district filter applies (spec §4.3: district "applicable when the receiving country is
 * Bangladesh"): the one profile with `districtFilter` (countries.ts).
 */
export const DISTRICT_COUNTRY = DISTRICT_COUNTRIES[0];

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** Longest code accepted as typed (spaces included): an IFSC is 11 characters, an agent code about as long. */
export const MAX_CODE_LENGTH = 40;

/** A code as pasted from a cheque or a text message: spaces and tabs go, letters are upper-cased. */
export const normaliseCode = (code: string) => code.replace(/\s+/g, '').toUpperCase();
