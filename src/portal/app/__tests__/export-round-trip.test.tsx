import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, BankBranch, Page } from '../../../contract';
import { appFromImports } from '../../../testing/import-into-store';
import { testEngines, type TestApp } from '../../../testing/test-app';
import { toCsv } from '../../components/ui/csv';
import { exportRows, type CsvColumn } from '../../components/ui/export-csv-button';
import { getAgents } from '../../features/agents/api/get-agents';
import { agentImportColumns } from '../../features/agents/components/agent-search';
import { getBranches } from '../../features/branches/api/get-branches';
import { branchImportColumns } from '../../features/branches/components/branch-finder';
import { saveCorrespondentId } from '../../lib/correspondent-id';
import { startPortalApi } from '../../testing/portal-api';

// The round trip: the portal's CSV export of a whole answer (every page, fetched by the
// portal's own fetchers from the real API, written by the export button's code) imported through the importer
// (replacing every row of that kind: all agents, the country's branches) gives back exactly the same rows,
// every field — branch ids included — for branches and agents, on every store engine.

let api: TestApp;
beforeAll(async () => {
  api = await startPortalApi();
  saveCorrespondentId('AB12CD');
});
afterAll(async () => {
  saveCorrespondentId(null);
  await api.close();
});

/** The CSV the export button downloads (without its byte-order mark, which the importer accepts too). */
async function portalCsv<T>(
  fetchPage: (pageNumber: number, pageSize: number) => Promise<Page<T>>,
  columns: CsvColumn<T>[],
) {
  const first = await fetchPage(1, 1);
  const rows = await exportRows({ total: first.pagination.totalItems, rows: [], fetchPage });
  expect(rows).toHaveLength(first.pagination.totalItems);
  return { rows, csv: toCsv(rows, columns) };
}

/** Every row of the answer, straight from an app (the one the file was imported into). */
async function answer<T>(app: TestApp, path: string, query: Record<string, string>): Promise<T[]> {
  const rows: T[] = [];
  for (let pageNumber = 1; ; pageNumber++) {
    const res = await app.get(path, { ...query, pageSize: '1000', pageNumber: String(pageNumber) });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page<T>;
    rows.push(...page.data);
    if (pageNumber >= page.pagination.totalPages) return rows;
  }
}

const BRANCH_ANSWERS: Record<string, string>[] = [
  // Nigeria: no routing numbers, bank + branch name twice for 27 pairs, 3 natural keys twice (ids -2).
  { receivingCountry: 'NG', deliveryMode: '04', receivingAgentHeadOfficeCode: 'ACCSNG' },
  { receivingCountry: 'IN', deliveryMode: '04', receivingAgentHeadOfficeCode: 'FDRLIN', bankCode: 'BARB' },
  { receivingCountry: 'BD', deliveryMode: '04', receivingAgentHeadOfficeCode: 'SONLBD', district: 'Dhaka' },
];
const AGENT_ANSWER = { receivingCountry: 'MX', deliveryMode: '01', state: 'JAL' };

describe.each(testEngines())('export → import into a %s store → the same rows', (engine) => {
  it.each(BRANCH_ANSWERS)(
    'branches $receivingCountry $receivingAgentHeadOfficeCode',
    { timeout: 300_000 },
    async (query) => {
      const { rows, csv } = await portalCsv<BankBranch>(
        (pageNumber, pageSize) =>
          getBranches({
            ...(query as { receivingCountry: string; deliveryMode: string; receivingAgentHeadOfficeCode: string }),
            pageNumber: String(pageNumber),
            pageSize: String(pageSize),
          }),
        branchImportColumns,
      );
      expect(rows.length).toBeGreaterThan(0);
      const target = await appFromImports(engine, [{ kind: 'branches', name: 'branches-export.csv', text: csv }]);
      try {
        expect(await answer<BankBranch>(target, '/v1/banks/branches', query)).toEqual(rows);
      } finally {
        await target.close();
      }
    },
  );

  it('agents MX JAL, phone numbers and accents included', { timeout: 300_000 }, async () => {
    const { rows, csv } = await portalCsv<Agent>(
      (pageNumber, pageSize) =>
        getAgents({ ...AGENT_ANSWER, pageNumber: String(pageNumber), pageSize: String(pageSize) }),
      agentImportColumns,
    );
    expect(rows.some((a) => a.phoneNumber?.startsWith('+52'))).toBe(true);
    const target = await appFromImports(engine, [{ kind: 'agents', name: 'agents-export.csv', text: csv }]);
    try {
      expect(await answer<Agent>(target, '/v1/agents', AGENT_ANSWER)).toEqual(rows);
    } finally {
      await target.close();
    }
  });
});
