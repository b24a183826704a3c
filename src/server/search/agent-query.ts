import { ACCOUNT_TRANSFER_TO_OTHER_BANK, type Agent, type Page } from '../../contract';
import { deliveryModeCodeOf } from '../../contract/delivery-modes';
import { pageOf, splitBankBranchSearch, type AgentSearch } from '../store/store';
import type { OfficeEntry } from './index-data';
import { postingsRows } from './text-index';
import {
  POSTINGS_ROW_COST,
  lowerBound,
  pageOfRanges,
  AgentTest,
  TextMembership,
  type BranchConditions,
  type Candidates,
} from './row-scan';
import type { Answer } from './index-core';
import { BranchQuery } from './branch-query';

// The agent list (spec §4.1): head offices of a country offering a delivery mode, and branches as agents.

export class AgentQuery extends BranchQuery {
  // ---------------------------------------------------------------------------------------------------------
  // Agent list (spec §4.1)

  /**
   * Head offices of the country offering the mode, by code: the agent list's order. Worked out once per country
   * and mode for this index (a part of the index, like its columns: the offices never change within a data
   * version). Made per request, the copies were garbage that V8 placed straight in the old generation, kept until
   * a full collection (the memory while serving).
   */
  private officesOffering(country: string, deliveryMode: number): readonly (OfficeEntry & { index: number })[] {
    const key = `${country}\u0000${deliveryMode}`;
    let offices = this.offering.get(key);
    if (!offices) {
      if (!this.countryIndex.has(country)) return [];
      offices = this.data.offices
        .map((h, index) => ({ ...h, index }))
        .filter((h) => h.country === country && h.deliveryModes.includes(deliveryMode));
      this.offering.set(key, offices);
    }
    return offices;
  }

  agents(search: AgentSearch): Page<Agent> {
    const offset = (search.pageNumber - 1) * search.pageSize;
    if (search.deliveryMode === ACCOUNT_TRANSFER_TO_OTHER_BANK) {
      const { total, agents } = this.branchAgents(search, offset);
      return pageOf(agents, total, search.pageNumber, search.pageSize);
    }
    const { total, rows } = this.agentRows(search, offset);
    return pageOf(
      rows.map((row) => this.agentRecord(row)),
      total,
      search.pageNumber,
      search.pageSize,
    );
  }

  /**
   * The same answer as `agents`, as the JSON text of the page, written from the rows' documents; delivery mode
   * 04 (answered from bank branches, each record made for its head office) returns null: use `agents`.
   */
  agentsJson(search: AgentSearch, allocate?: (length: number) => Buffer): Buffer | null {
    return this.agentsAnswer(search, allocate)?.body ?? null;
  }

  /** `agentsJson`, or its gzip member, as `branchesAnswer`. */
  agentsAnswer(search: AgentSearch, allocate?: (length: number) => Buffer, gzipFrom?: number): Answer | null {
    if (search.deliveryMode === ACCOUNT_TRANSFER_TO_OTHER_BANK) return null;
    const { total, rows } = this.agentRows(search, (search.pageNumber - 1) * search.pageSize);
    return this.pageAnswer('agents', rows, null, total, search, allocate, gzipFrom);
  }

  /**
   * Agents of the country's head offices offering the mode, head office by head office (by code), each a
   * contiguous range of rows; search is a case-sensitive contains on head office or agent name: a head office
   * whose name contains it answers with all its agents (in the state, if one is asked), the others with their
   * agents whose name contains it.
   */
  private agentRows(search: AgentSearch, offset: number): { total: number; rows: number[] } {
    const offices = this.officesOffering(search.receivingCountry, search.deliveryMode);
    const state = search.state === undefined ? -1 : (this.stateIds.get(search.state) ?? -2);
    if (offices.length === 0 || state === -2) return { total: 0, rows: [] };
    const columns = this.data.agents;
    const byState = this.data.postings.agentState;
    const term = search.search;
    const nameIds = term === undefined ? null : this.text.agentName.matching(term);
    const byName = this.data.postings.agentName;
    let total = 0;
    const found: number[] = [];
    for (const office of offices) {
      const { agentStart: start, agentEnd: end } = office;
      const skip = Math.max(0, offset - total);
      const wanted = search.pageSize - found.length;
      let page: { total: number; rows: number[] };
      if (nameIds === null || office.name.includes(term!)) {
        // No name filter: the office's rows, or those in the state (a slice of the state's postings).
        if (state < 0) page = pageOfRanges([[start, end]], end - start, skip, wanted);
        else {
          const list = byState.rows;
          const from = lowerBound(list, byState.offsets[state], byState.offsets[state + 1], start);
          const to = lowerBound(list, from, byState.offsets[state + 1], end);
          page = {
            total: to - from,
            rows: Array.from(list.subarray(from + skip, Math.min(to, from + skip + Math.max(0, wanted)))),
          };
        }
      } else {
        // Its rows whose name matches: from the matched names inside its span of name ids, its state's rows,
        // or its whole range, whichever is fewest.
        const first = lowerBound(nameIds, 0, nameIds.length, office.nameMin);
        const ids = nameIds.subarray(first, lowerBound(nameIds, first, nameIds.length, office.nameMax + 1));
        if (ids.length === 0) {
          // None of its agents' names contains the term: nothing of it to scan.
          continue;
        }
        let candidates: Candidates = { ranges: [[start, end]] };
        let cost = end - start;
        // What the candidates leave to check: every candidate is a row of this office (its range, or the
        // postings kept inside it by matches); the state's slice is all in the state, the names' postings all of
        // matching names. A column read per row is a cache miss when the rows come from postings.
        let checkState = state >= 0;
        let checkName = true;
        if (state >= 0) {
          // The state's rows of this office only: its slice of the state's postings. Ascending rows, visited in
          // order and not gathered to be selected: no POSTINGS_ROW_COST (the bench's agent searches are faster so).
          const list = byState.rows;
          const from = lowerBound(list, byState.offsets[state], byState.offsets[state + 1], start);
          const to = lowerBound(list, from, byState.offsets[state + 1], end);
          if (to - from < cost) {
            candidates = { rows: list.subarray(from, to) };
            cost = to - from;
            checkState = false;
          }
        }
        // The names' rows, counted only when they can be fewer: each name has at least one row.
        if (ids.length * POSTINGS_ROW_COST < cost) {
          const viaNames = postingsRows(byName, ids) * POSTINGS_ROW_COST;
          if (viaNames < cost) {
            candidates = { postings: byName, ids };
            cost = viaNames;
            checkState = state >= 0;
            checkName = false;
          }
        }
        // The office's matched names only (not every name the term matched, across every office): stamped, or
        // looked up by binary search when few rows are to be checked against many names (BranchTest's rule).
        const names = checkName ? new TextMembership({ set: this.sets.agentName, ids }, cost) : null;
        const test = new AgentTest(columns.state, checkState ? state : -1, columns.name, names);
        page = this.matches(candidates, start, end, test, skip, Math.max(0, wanted));
      }
      found.push(...page.rows);
      total += page.total;
    }
    return { total, rows: found };
  }

  /**
   * Delivery mode 04: the agent list answers from the bank branches each mode-04 head office pays into, head
   * office by head office (by code). The search follows "[Bank Name], [Branch Name]"; without a comma it is a
   * contains on head office, bank or branch name. Case-sensitive, like every agent-list search (spec §4.1).
   */
  private branchAgents(search: AgentSearch, offset: number): { total: number; agents: Agent[] } {
    const country = this.countryIndex.get(search.receivingCountry);
    const offices = this.officesOffering(search.receivingCountry, search.deliveryMode);
    if (country === undefined || offices.length === 0) return { total: 0, agents: [] };
    const state = search.state === undefined ? -1 : (this.stateIds.get(search.state) ?? -2);
    if (state === -2) return { total: 0, agents: [] };
    const parts = search.search ? splitBankBranchSearch(search.search) : null;
    const namedBanks = (term: string) => this.banksWhere(search.receivingCountry, (bank) => bank.name.includes(term));
    const texts: BranchConditions['texts'] = [];
    let either: BranchConditions['either'];
    let bankNamed: number[] | null = null;
    if (parts) {
      if (parts.bankName) bankNamed = namedBanks(parts.bankName);
      if (parts.branchName) {
        const ids = this.text.branchName.matching(parts.branchName);
        texts.push({
          column: this.data.branches.branchName,
          set: this.sets.branchName,
          postings: this.data.postings.branchName,
          ids,
        });
      }
    } else if (search.search) {
      either = {
        banks: namedBanks(search.search),
        names: this.sets.branchName.reset(this.text.branchName.matching(search.search)),
      };
    }
    let total = 0;
    const agents: Agent[] = [];
    for (const office of offices) {
      const banks = this.banksOfOffice(office).slice();
      if (bankNamed) for (let b = 0; b < banks.length; b++) banks[b] &= bankNamed[b];
      const wholeOffice = either !== undefined && office.name.includes(search.search!);
      const conditions: BranchConditions = { banks, state, texts, either: wholeOffice ? undefined : either };
      const skip = Math.max(0, offset - total);
      const wanted = search.pageSize - agents.length;
      const page = this.branchRows(country, conditions, skip, wanted);
      for (const row of page.rows) agents.push(this.branchAgentRecord(row, office));
      total += page.total;
    }
    return { total, agents };
  }

  private branchAgentRecord(row: number, office: OfficeEntry): Agent {
    const branch = this.branchRecord(row, office.code);
    return {
      receivingAgentHeadOfficeCode: office.code,
      headOfficeName: office.name,
      agentCode: branch.routingNumber ?? `${branch.bankCode}-${this.data.branches.id[row]}`,
      agentName: branch.branchName,
      addressLine1: branch.branchLocation,
      addressLine2: branch.address,
      city: branch.city,
      state: branch.state,
      stateName: branch.stateName,
      phoneNumber: null,
      receivingCountry: branch.receivingCountry,
      payoutType: office.payoutType,
      deliveryModes: [deliveryModeCodeOf(ACCOUNT_TRANSFER_TO_OTHER_BANK)],
      bankCode: branch.bankCode,
      bankName: branch.bankName,
      routingNumber: branch.routingNumber,
    };
  }
}
