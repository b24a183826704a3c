import type { Agent, BranchDetail } from '../../../contract';
import type { ChangeKind } from '../../../contract/ops-changes';
import { recordKeyOf } from '../../../contract/record-key';

/** What a teller reports on: the branch of the branch view, or a row of the agent list. */
export type ReportSubject = { kind: 'branch'; branch: BranchDetail } | { kind: 'agent'; agent: Agent };

/** The name a teller knows the subject by. */
export const subjectName = (subject: ReportSubject) =>
  subject.kind === 'branch' ? subject.branch.branchName : subject.agent.agentName;

interface BranchLike {
  country: string;
  routingNumber: string | null;
  bankCode: string;
  branchName: string;
  addressLine1: string | null;
}

/** A branch's natural key (domain/natural-keys.ts): country and routing number, else bank, name and address. */
const branchParts = (b: BranchLike) =>
  b.routingNumber ? [b.country, b.routingNumber] : [b.country, b.bankCode, b.branchName, b.addressLine1 ?? ''];

/**
 * The record the subject is, as the desk names it (GET /v1/ops/records): a branch by its natural key; an agent by
 * its code, except the account-transfer (mode 04) rows of the agent list, which are the bank's branches.
 */
export function subjectRecord(subject: ReportSubject): { kind: ChangeKind; key: string; code: string | null } {
  if (subject.kind === 'branch') {
    const b = subject.branch;
    const parts = branchParts({
      country: b.receivingCountry,
      routingNumber: b.routingNumber,
      bankCode: b.bankCode,
      branchName: b.branchName,
      addressLine1: b.branchLocation,
    });
    return { kind: 'branches', key: recordKeyOf(parts), code: b.routingNumber };
  }
  const a = subject.agent;
  if (a.bankCode !== null) {
    const parts = branchParts({
      country: a.receivingCountry,
      routingNumber: a.routingNumber,
      bankCode: a.bankCode,
      branchName: a.agentName,
      addressLine1: a.addressLine1,
    });
    return { kind: 'branches', key: recordKeyOf(parts), code: a.routingNumber };
  }
  return { kind: 'agents', key: recordKeyOf([a.agentCode]), code: a.agentCode };
}
