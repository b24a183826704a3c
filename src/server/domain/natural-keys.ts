import type { AgentRow, BranchRow, HeadOfficeRow } from './data-set';

// How a record is recognised across files and data versions: the operations desk's difference (added, removed,
// changed) and the branch id the API gives are both built on these, so one place says what "the same branch"
// means. A branch is its routing number (IFSC for India, the routing number for Bangladesh) within its country;
// where the country has none (Nigeria), its bank code + branch name + address line 1. An agent is its agent
// code; a head office its head office code.

export type BranchKeyFields = Pick<BranchRow, 'country' | 'bankCode' | 'routingNumber' | 'branchName' | 'addressLine1'>;

/** Separates the parts of a key: a character no published text holds. */
const SEP = '\u001f';

export function branchKey(row: BranchKeyFields): string {
  return row.routingNumber
    ? [row.country, row.routingNumber].join(SEP)
    : [row.country, row.bankCode, row.branchName, row.addressLine1 ?? ''].join(SEP);
}

export const agentKey = (row: Pick<AgentRow, 'agentCode'>): string => row.agentCode;

export const headOfficeKey = (row: Pick<HeadOfficeRow, 'code'>): string => row.code;

/** A key's parts, for showing it to a person (the desk's difference lists them as columns). */
export const keyParts = (key: string): string[] => key.split(SEP);
