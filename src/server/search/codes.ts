import {
  ACCOUNT_TRANSFER_TO_OTHER_BANK,
  type BranchDetail,
  type CodeFormat,
  type CodeMatch,
  type PayingHeadOffice,
} from '../../contract';
import type { IndexView, SearchIndex } from './search-index';

// The one box for any code: a code is looked up as every format its shape fits (codeFormatsOf in
// the contract, from the country profiles): a branch routing number and an agent code through the index's
// hash tables, a bank code among the index's banks. Each branch or bank match names the delivery-mode-04 head
// offices that pay into its bank (routes_to_banks).

/**
 * Mode-04 head offices of the country that pay into the bank. `heldBank` false: a bank the data set does not
 * hold, so no head office lists it by code; those whose routes_to_banks is "*" (every bank of the country,
 * stored as the list of every held bank) pay into it all the same.
 */
export function headOfficesPayingInto(
  view: IndexView,
  country: string,
  bankCode: string,
  heldBank = true,
): PayingHeadOffice[] {
  const countryBanks = new Set(view.data.banks.filter((b) => b.country === country).map((b) => b.code));
  return view.data.offices
    .filter((office) => {
      if (office.country !== country || !office.deliveryModes.includes(ACCOUNT_TRANSFER_TO_OTHER_BANK)) return false;
      if (heldBank) return office.bankCodes.includes(bankCode);
      const listed = new Set(office.bankCodes);
      return listed.has(bankCode) || (countryBanks.size > 0 && [...countryBanks].every((code) => listed.has(code)));
    })
    .map((office) => ({ receivingAgentHeadOfficeCode: office.code, headOfficeName: office.name }));
}

/** Every record the code names, in the order of the formats, then answer order. */
export function findCode(
  index: SearchIndex,
  code: string,
  formats: CodeFormat[],
  countryName: (code: string) => string,
): CodeMatch[] {
  const view = index.extensionView;
  const matches: CodeMatch[] = [];
  const none = { bankCode: null, bankName: null, branch: null, branchCount: null, agent: null, headOffices: [] };
  for (const format of formats) {
    if (format.kind === 'branch') {
      for (const row of index.rowsWithCode('routing', code)) {
        const { receivingAgentHeadOfficeCode: _none, ...branch } = view.branchRecord(row, '');
        if (branch.receivingCountry !== format.receivingCountry) continue;
        matches.push({
          ...none,
          kind: 'branch',
          receivingCountry: branch.receivingCountry,
          receivingCountryName: countryName(branch.receivingCountry),
          bankCode: branch.bankCode,
          bankName: branch.bankName,
          branch,
          headOffices: headOfficesPayingInto(view, branch.receivingCountry, branch.bankCode),
        });
      }
    } else if (format.kind === 'bank') {
      // One bank code may carry more than one name in a country (renamed banks): one match, the first name.
      const banks = view.data.banks
        .map((bank, id) => ({ ...bank, id }))
        .filter((b) => b.country === format.receivingCountry && b.code === code);
      if (banks.length === 0) continue;
      const ids = new Set(banks.map((b) => b.id));
      let branchCount = 0;
      for (const group of new Set(banks.map((b) => view.data.bankGroups[b.group]))) {
        // A bank name group of this bank alone is counted by its size; a shared one row by row.
        if (group.banks.every((b) => ids.has(b))) branchCount += group.end - group.start;
        else
          for (let row = group.start; row < group.end; row++) if (ids.has(view.data.branches.bank[row])) branchCount++;
      }
      matches.push({
        ...none,
        kind: 'bank',
        receivingCountry: banks[0].country,
        receivingCountryName: countryName(banks[0].country),
        bankCode: code,
        bankName: banks[0].name,
        branchCount,
        headOffices: headOfficesPayingInto(view, banks[0].country, code),
      });
    } else {
      for (const row of index.rowsWithCode('agentCode', code)) {
        const agent = view.agentRecord(row);
        matches.push({
          ...none,
          kind: 'agent',
          receivingCountry: agent.receivingCountry,
          receivingCountryName: countryName(agent.receivingCountry),
          agent,
        });
      }
    }
  }
  return matches;
}

/**
 * One branch in full, by its id (GET /v1/banks/branches/{branchId}), or null. MICR, SWIFT, contact and the rails
 * are not in the branch files yet (the import format gains them with the operations desk): `null`, "not held".
 */
export function branchDetailOf(
  index: SearchIndex,
  branchId: string,
  countryName: (code: string) => string,
  codeName: (country: string) => string,
): BranchDetail | null {
  const [row] = index.rowsWithCode('branchId', branchId);
  if (row === undefined) return null;
  const view = index.extensionView;
  const { receivingAgentHeadOfficeCode: _none, ...branch } = view.branchRecord(row, '');
  return {
    ...branch,
    receivingCountryName: countryName(branch.receivingCountry),
    branchCodeName: codeName(branch.receivingCountry),
    micr: null,
    swift: null,
    contact: null,
    neft: null,
    rtgs: null,
    imps: null,
    upi: null,
    headOffices: headOfficesPayingInto(view, branch.receivingCountry, branch.bankCode),
  };
}
