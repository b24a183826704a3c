import { ACCOUNT_TRANSFER_TO_OTHER_BANK, placeNameVariants, type Agent, type BankBranch } from '../contract';
import type { DataSet } from '../server/domain/data-set';
import { deliveryModeCodeOf } from '../contract/delivery-modes';
import { branchBaseId, uniqueBranchIds } from '../server/domain/branch-id';
import { splitBankBranchSearch, type AgentSearch, type BranchSearch } from '../server/store/store';

// The lookup rules written as plainly as possible, over the rows of a data set: what the search index must
// answer, record for record (README "Rules"). Used by the tests only; slow on purpose.

const byCodePoint = (a: string, b: string) => {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};
const has = (value: string | null, term: string | undefined) => term === undefined || (value ?? '').includes(term);
const hasFolded = (value: string | null, term: string | undefined) =>
  term === undefined || (value ?? '').toLowerCase().includes(term.toLowerCase());
const anyFolded = (value: string | null, country: string, term: string | undefined) =>
  term === undefined || placeNameVariants(country, term).some((variant) => hasFolded(value, variant));

export class BruteForce {
  private readonly ordered: (DataSet['branches'][number] & { id: number; branchId: string })[];
  private readonly stateNames: Map<string, string>;
  constructor(private readonly dataSet: DataSet) {
    const ordered = dataSet.branches
      .map((b, i) => ({ ...b, id: i + 1 }))
      .sort(
        (x, y) =>
          byCodePoint(x.country, y.country) ||
          byCodePoint(x.bankName, y.bankName) ||
          byCodePoint(x.branchName, y.branchName) ||
          x.id - y.id,
      );
    // The id of the natural key; one given twice is told apart in answer order (domain/branch-id.ts).
    const ids = uniqueBranchIds(ordered.map(branchBaseId));
    this.ordered = ordered.map((b, i) => ({ ...b, branchId: ids[i] }));
    this.stateNames = new Map(dataSet.states.map((s) => [`${s.country}|${s.code}`, s.name]));
  }

  private offices(country: string, mode: number) {
    return this.dataSet.headOffices
      .filter((h) => h.country === country && h.deliveryModes.includes(mode))
      .sort((x, y) => byCodePoint(x.code, y.code));
  }

  private stateName(country: string, state: string | null) {
    return state === null ? null : (this.stateNames.get(`${country}|${state}`) ?? null);
  }

  /** Every matching branch record, in answer order. */
  branches(q: Omit<BranchSearch, 'pageNumber' | 'pageSize'>): BankBranch[] {
    const office = this.offices(q.receivingCountry, q.deliveryMode).find(
      (h) => h.code === q.receivingAgentHeadOfficeCode,
    );
    if (!office) return [];
    return this.ordered
      .filter(
        (b) =>
          b.country === q.receivingCountry &&
          office.bankCodes.includes(b.bankCode) &&
          hasFolded(b.bankName, q.bankName) &&
          (q.bankCode === undefined || b.bankCode === q.bankCode || b.routingNumber === q.bankCode) &&
          // A place known under two names is found under either (contract/place-aliases.ts).
          anyFolded(b.addressLine1, q.receivingCountry, q.branchLocation) &&
          anyFolded(b.addressLine2, q.receivingCountry, q.address) &&
          anyFolded(b.district, q.receivingCountry, q.district),
      )
      .map((b) => ({
        receivingAgentHeadOfficeCode: office.code,
        branchId: b.branchId,
        bankCode: b.bankCode,
        bankName: b.bankName,
        routingNumber: b.routingNumber,
        branchName: b.branchName,
        branchLocation: b.addressLine1,
        address: b.addressLine2,
        city: b.city,
        district: b.district,
        state: b.state,
        stateName: this.stateName(b.country, b.state),
        receivingCountry: b.country,
      }));
  }

  /** Every matching agent record, in answer order. */
  agents(q: Omit<AgentSearch, 'pageNumber' | 'pageSize'>): Agent[] {
    const offices = this.offices(q.receivingCountry, q.deliveryMode);
    if (q.deliveryMode === ACCOUNT_TRANSFER_TO_OTHER_BANK) {
      const parts = q.search ? splitBankBranchSearch(q.search) : null;
      return offices.flatMap((h) =>
        this.ordered
          .filter(
            (b) =>
              b.country === h.country &&
              h.bankCodes.includes(b.bankCode) &&
              (q.state === undefined || b.state === q.state) &&
              (parts
                ? has(b.bankName, parts.bankName) && has(b.branchName, parts.branchName)
                : has(h.name, q.search) || has(b.bankName, q.search) || has(b.branchName, q.search)),
          )
          .map((b) => ({
            receivingAgentHeadOfficeCode: h.code,
            headOfficeName: h.name,
            agentCode: b.routingNumber ?? `${b.bankCode}-${b.id}`,
            agentName: b.branchName,
            addressLine1: b.addressLine1,
            addressLine2: b.addressLine2,
            city: b.city,
            state: b.state,
            stateName: this.stateName(b.country, b.state),
            phoneNumber: null,
            receivingCountry: b.country,
            payoutType: h.payoutType,
            deliveryModes: ['04'],
            bankCode: b.bankCode,
            bankName: b.bankName,
            routingNumber: b.routingNumber,
          })),
      );
    }
    const offered = new Map(offices.map((h) => [h.code, h]));
    return this.dataSet.agents
      .filter(
        (a) =>
          a.country === q.receivingCountry &&
          offered.has(a.headOfficeCode) &&
          (q.state === undefined || a.state === q.state) &&
          (has(a.agentName, q.search) || has(offered.get(a.headOfficeCode)!.name, q.search)),
      )
      .sort((x, y) => byCodePoint(x.headOfficeCode, y.headOfficeCode) || byCodePoint(x.agentCode, y.agentCode))
      .map((a) => {
        const h = offered.get(a.headOfficeCode)!;
        return {
          receivingAgentHeadOfficeCode: h.code,
          headOfficeName: h.name,
          agentCode: a.agentCode,
          agentName: a.agentName,
          addressLine1: a.addressLine1,
          addressLine2: a.addressLine2,
          city: a.city,
          state: a.state,
          stateName: this.stateName(a.country, a.state),
          phoneNumber: a.phoneNumber,
          receivingCountry: a.country,
          payoutType: h.payoutType,
          deliveryModes: [...h.deliveryModes].sort((x, y) => x - y).map(deliveryModeCodeOf),
          bankCode: null,
          bankName: null,
          routingNumber: null,
        };
      });
  }
}
