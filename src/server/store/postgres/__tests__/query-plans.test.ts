import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStore, type PageQuery } from '../pg-store';
import type { AgentSearch, BranchSearch } from '../../store';
import { createTestPostgresDatabase, testEngines } from '../../../../testing/test-app';

// Every query shape the PostgreSQL store sends is served by an index on a large data set: the seeded real
// rows multiplied (about 217,000 bank branches and 125,000 agents), then EXPLAIN of the page query and its
// count. A plan with a Seq Scan on bank_branches or agents would read the whole table on every lookup.

const BRANCH_COPIES = 9;
const AGENT_COPIES = 5;

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] }
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

const page = { pageNumber: 1, pageSize: 50 };
const agents = (search: Partial<AgentSearch>): AgentSearch => ({ receivingCountry: 'MX', deliveryMode: 1, ...page, ...search });
const branches = (search: Partial<BranchSearch>): BranchSearch => ({
  receivingCountry: 'IN', deliveryMode: 4, receivingAgentHeadOfficeCode: 'ICICIN', ...page, ...search,
});

describe.skipIf(!testEngines().includes('postgres'))('query plans on a large data set', () => {
  let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
  let store: PgStore;

  beforeAll(async () => {
    database = await createTestPostgresDatabase();
    store = PgStore.open({ connectionString: database.url, statementTimeoutMs: 600_000 });
    // Copies of the real rows with fresh ids and codes: the same vocabulary, so searches stay as selective.
    await store.pool.query(`
      INSERT INTO bank_branches
      SELECT b.id + n * m.max_id, country, bank_code, bank_name, routing_number || '-' || n, branch_name || ' ' || n,
             address_line1, address_line2, city, district, state, bank_name_search, address_line1_search,
             address_line2_search, district_search
      FROM bank_branches b, (SELECT max(id) AS max_id FROM bank_branches) m, generate_series(1, ${BRANCH_COPIES - 1}) n`);
    await store.pool.query(`
      INSERT INTO agents
      SELECT a.id + n * m.max_id, agent_code || '-' || n, head_office_code, country, agent_name, address_line1,
             address_line2, city, state, phone_number
      FROM agents a, (SELECT max(id) AS max_id FROM agents) m, generate_series(1, ${AGENT_COPIES - 1}) n`);
    await store.pool.query('VACUUM (ANALYZE) bank_branches, agents');
  }, 600_000);

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('holds a large data set', async () => {
    const { rows } = await store.pool.query('SELECT (SELECT count(*) FROM bank_branches)::int AS branches, (SELECT count(*) FROM agents)::int AS agents');
    expect(rows[0].branches).toBeGreaterThan(200_000);
    expect(rows[0].agents).toBeGreaterThan(100_000);
  });

  const SHAPES: [string, (s: PgStore) => PageQuery][] = [
    ['agents: country and mode', (s) => s.agentQuery(agents({}))],
    ['agents: state', (s) => s.agentQuery(agents({ state: 'JAL' }))],
    ['agents: search, rare term', (s) => s.agentQuery(agents({ search: 'Zapopan' }))],
    ['agents: search, common term', (s) => s.agentQuery(agents({ search: 'OXXO' }))],
    ['agents: state and search', (s) => s.agentQuery(agents({ state: 'JAL', search: 'Guadalajara' }))],
    ['agents: deep page', (s) => s.agentQuery(agents({ pageNumber: 1000, pageSize: 10 }))],
    ['agents mode 04: country', (s) => s.branchAgentsQuery(agents({ receivingCountry: 'BD', deliveryMode: 4 }))],
    ['agents mode 04: [Bank Name], [Branch Name]', (s) => s.branchAgentsQuery(agents({ receivingCountry: 'IN', deliveryMode: 4, search: 'STATE BANK OF INDIA, MUMBAI' }))],
    ['agents mode 04: branch name only', (s) => s.branchAgentsQuery(agents({ receivingCountry: 'IN', deliveryMode: 4, search: ', KORAMANGALA' }))],
    ['agents mode 04: search without comma', (s) => s.branchAgentsQuery(agents({ receivingCountry: 'IN', deliveryMode: 4, search: 'KORAMANGALA' }))],
    ['agents mode 04: state', (s) => s.branchAgentsQuery(agents({ receivingCountry: 'IN', deliveryMode: 4, state: 'KA' }))],
    ['branches: head office', (s) => s.branchQuery(branches({}))],
    ['branches: bank name', (s) => s.branchQuery(branches({ bankName: 'canara' }))],
    ['branches: bank code', (s) => s.branchQuery(branches({ bankCode: 'SBIN' }))],
    ['branches: routing number', (s) => s.branchQuery(branches({ bankCode: 'SBIN0000300' }))],
    ['branches: branch location', (s) => s.branchQuery(branches({ branchLocation: 'koramangala' }))],
    ['branches: address', (s) => s.branchQuery(branches({ address: 'karnataka' }))],
    ['branches: bank name and branch location', (s) => s.branchQuery(branches({ bankName: 'state bank', branchLocation: 'mumbai' }))],
    ['branches: district (Bangladesh)', (s) => s.branchQuery(branches({ receivingCountry: 'BD', receivingAgentHeadOfficeCode: 'BRACBD', district: 'sylhet' }))],
    ['branches: foreign bank code', (s) => s.branchQuery(branches({ receivingAgentHeadOfficeCode: 'FDRLIN', bankCode: 'HDFC' }))],
  ];

  it.each(SHAPES)('%s uses an index, never a Seq Scan on the big tables', async (_shape, build) => {
    const query = build(store);
    for (const [sql, params] of [[query.count, query.countParams], [query.rows, query.rowParams]] as const) {
      const { rows } = await store.pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, params as unknown[]);
      const nodes = nodesOf(rows[0]['QUERY PLAN'][0].Plan as PlanNode);
      const onBigTables = nodes.filter((n) => n['Relation Name'] === 'bank_branches' || n['Relation Name'] === 'agents');
      const plan = JSON.stringify(nodes.map((n) => `${n['Node Type']} ${n['Relation Name'] ?? ''} ${n['Index Name'] ?? ''}`.trim()));
      expect(onBigTables.filter((n) => n['Node Type'] === 'Seq Scan'), plan).toEqual([]);
      expect(onBigTables.length, plan).toBeGreaterThan(0);
      expect(onBigTables.every((n) => /Index|Bitmap Heap/.test(n['Node Type'])), plan).toBe(true);
    }
  });
});
