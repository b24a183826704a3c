import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../contract/constants';
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
