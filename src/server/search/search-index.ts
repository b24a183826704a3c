import { ACCOUNT_TRANSFER_TO_OTHER_BANK, placeNameVariants, type Agent, type BankBranch } from '../../contract';
import type { OfficeEntry, SearchIndexData } from './index-data';
import { StringTable } from './strings';
import { HEAD_OFFICE_PLACEHOLDER } from './index-core';
import { AgentQuery } from './agent-query';

// Answers the agent list and the bank branches from one data set's index (build.ts), synchronously: an answer
// comes wholly from the data version the index was built from.

export class SearchIndex extends AgentQuery {
  /**
   * Request paths that warm a new index before it serves (the first seconds after /readyz, and after
   * a swap): searches made of words of rows spread evenly over the data set, with their own head office, so
   * the words are drawn by how often they occur — the terms tellers type most are the ones whose matches the
   * text indexes then remember — and every code path of a search (JIT) runs before the first real request.
   */
  warmUpPaths(count = 400): string[] {
    const words = (text: string | null) => (text ?? '').toLowerCase().match(/\p{L}{4,}/gu) ?? [];
    const query = (endpoint: string, values: Record<string, string | number>) =>
      `/v1/${endpoint}?${new URLSearchParams(Object.entries(values).map(([k, v]) => [k, String(v)])).toString()}`;
    const officeOfBank = new Map<string, OfficeEntry>();
    for (const office of this.data.offices)
      if (office.deliveryModes.includes(ACCOUNT_TRANSFER_TO_OTHER_BANK))
        for (const code of office.bankCodes) if (!officeOfBank.has(code)) officeOfBank.set(code, office);
    const paths: string[] = [];
    const branches = this.data.branches.count;
    for (let i = 0; i < count && branches > 0; i++) {
      const record = this.branchRecord(Math.floor((i * branches) / count), HEAD_OFFICE_PLACEHOLDER);
      const office = officeOfBank.get(record.bankCode);
      if (!office) continue;
      const bankWord = words(record.bankName)[i % 2];
      const placeWord = words(record.branchLocation)[0];
      const values: Record<string, string | number> = {
        receivingCountry: office.country,
        deliveryMode: '04',
        receivingAgentHeadOfficeCode: office.code,
        pageNumber: 1 + (i % 2),
      };
      if (bankWord) values.bankName = bankWord;
      if (placeWord) values.branchLocation = placeWord;
      paths.push(query('banks/branches', values));
      if (i % 8 === 0 && record.routingNumber) paths.push(`/v1/codes/${encodeURIComponent(record.routingNumber)}`);
    }
    const agents = this.data.agents.count;
    for (let i = 0; i < count && agents > 0; i++) {
      const record = this.agentRecord(Math.floor((i * agents) / count));
      const mode = record.deliveryModes[0];
      if (!mode) continue;
      const values: Record<string, string | number> = {
        receivingCountry: record.receivingCountry,
        deliveryMode: mode,
        pageNumber: 1 + (i % 2),
      };
      if (record.state && i % 2 === 0) values.state = record.state;
      // The agent search is case-sensitive: a word as the name writes it.
      const nameWord = record.agentName.match(/\p{L}{4,}/u)?.[0];
      if (nameWord) values.search = nameWord;
      paths.push(query('agents', values));
    }
    return paths;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Extensions beyond the spec: the code lookup (codes.ts) and browsing with facets (browse.ts)
  // read the same columns, so both stores answer them alike and from the same data version.

  /** What the extension lookups read: the columns, string tables and the row records of the searches. */
  get extensionView(): IndexView {
    return {
      data: this.data,
      tables: this.tables,
      stateName: (country, code) => this.stateNames.get(`${country}\u0000${code}`) ?? null,
      branchRecord: (row, headOffice) => this.branchRecord(row, headOffice),
      agentRecord: (row) => this.agentRecord(row),
      routedRows: (code) => this.rowsWithCode('routing', code),
      matchingPlaces: (column, country, term) =>
        this.matchingAny(
          this.text[column],
          placeNameVariants(country, term).map((t) => t.toLowerCase()),
        ),
      bankStateCounts: () => (this.bankStates ??= this.countBankStates()),
      matchingText: (name, term) => this.text[name].matching(term),
      agentRows: (code) => this.rowsWithCode('agentCode', code),
    };
  }

  /** Rows by bank and state, made on first use (one pass over the branches): see IndexView.bankStateCounts. */
  private bankStates: Int32Array | null = null;
  private countBankStates(): Int32Array {
    const width = this.tables.state.size + 1;
    const counts = new Int32Array(this.data.banks.length * width);
    const { bank, state } = this.data.branches;
    for (let row = 0; row < this.data.branches.count; row++)
      counts[bank[row] * width + (state[row] < 0 ? width - 1 : state[row])]++;
    return counts;
  }
}

/** See SearchIndex.extensionView. */
export interface IndexView {
  data: SearchIndexData;
  tables: Record<keyof SearchIndexData['tables'], StringTable>;
  stateName(country: string, code: string): string | null;
  branchRecord(row: number, headOffice: string): BankBranch;
  agentRecord(row: number): Agent;
  /** Branch rows whose routing number is the code (the hash table). */
  routedRows(code: string): number[];
  /**
   * Ids of the lower-cased texts of the column holding the term under any of its place names (as the branch filters).
   */
  matchingPlaces(column: 'addr1Lower' | 'addr2Lower' | 'districtLower', country: string, term: string): Int32Array;
  /** Branch rows by bank and state: [bank * (states + 1) + state], the last column for rows without a state. */
  bankStateCounts(): Int32Array;
  /** Ids of the branch or agent names containing the term, as written (case-sensitive). */
  matchingText(name: 'branchName' | 'agentName', term: string): Int32Array;
  /** Agent rows whose agent code is the code (the hash table). */
  agentRows(code: string): number[];
}
