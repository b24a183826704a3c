import type { SeedFiles } from '../../src/server/seed/seed';
import { LOOKUP_HEADERS } from './bench-http';

// The query shapes the benchmark drives. Search terms come from the real data's vocabulary (data/seed), by
// how many real rows they occur in: the generated data set draws from the same vocabulary, so a "rare" term
// stays rare and a "common" one common at any size. Each shape rotates through several queries, so the
// numbers are not those of one repeated answer.

export interface Shape {
  name: string;
  /** The endpoint and what varies, for the table. */
  query: string;
  paths: string[];
  headers?: Record<string, string>;
  expectedStatus?: number;
}

/** Words of 4+ letters in one column of a country's real branches, with the number of rows holding each. */
function wordRows(
  real: SeedFiles,
  country: string,
  column: 'address_line1' | 'branch_name' | 'district',
): [string, number][] {
  const rows = new Map<string, number>();
  for (const file of real.branchFiles) {
    for (const record of file.records) {
      if (record.country !== country) continue;
      for (const word of new Set((record[column] ?? '').toLowerCase().match(/\p{L}{4,}/gu) ?? []))
        rows.set(word, (rows.get(word) ?? 0) + 1);
    }
  }
  return [...rows].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Up to `count` words spread evenly over the list (a fixed choice: the list is sorted). */
const spread = <T>(list: T[], count: number) =>
  list.length <= count ? list : Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]);

const rareWords = (words: [string, number][]) =>
  spread(
    words.filter(([, n]) => n >= 2 && n <= 4).map(([w]) => w),
    24,
  );
const commonWords = (words: [string, number][]) => words.slice(0, 6).map(([w]) => w);
/** Words in about 0.5–3% of the rows: what a teller types for a town or a street. */
const typicalWords = (words: [string, number][], total: number) =>
  spread(
    words.filter(([, n]) => n >= total * 0.005 && n <= total * 0.03).map(([w]) => w),
    12,
  );

/** Page numbers 1…count. */
const pages = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

const path = (endpoint: string, query: Record<string, string | number>) =>
  `/v1/${endpoint}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;

const OFFICE = { receivingCountry: 'IN', deliveryMode: '04', receivingAgentHeadOfficeCode: 'ICICIN' };

/** Shuffled (a fixed order), so that consecutive requests do not share their terms. */
const shuffled = (paths: string[]) =>
  paths
    .map((p, i) => [(i * 2654435761) % 4294967296, p] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, p]) => p);

/**
 * The typical distinct branch searches, from the real data's vocabulary alone (no request needed: the bench
 * drives them from the first second after /readyz): every bank-name word of the real Indian banks × place
 * words in 0.2–5% of the rows × pages 1–2 (3,000+ different answers), shuffled.
 */
export function distinctBranchSearches(real: SeedFiles): {
  inBankWords: string[];
  placeWords: string[];
  paths: string[];
} {
  const india = real.branchFiles.flatMap((f) => f.records).filter((r) => r.country === 'IN');
  const locationWords = wordRows(real, 'IN', 'address_line1');
  const inBankWords = [...new Set(india.flatMap((r) => r.bank_name.toLowerCase().match(/\p{L}{4,}/gu) ?? []))].sort();
  const placeWords = spread(
    locationWords.filter(([, n]) => n >= india.length * 0.002 && n <= india.length * 0.05).map(([w]) => w),
    60,
  );
  const paths = inBankWords.flatMap((bankName) =>
    placeWords.flatMap((branchLocation) =>
      [1, 2].map((pageNumber) => path('banks/branches', { ...OFFICE, bankName, branchLocation, pageNumber })),
    ),
  );
  return { inBankWords, placeWords, paths: shuffled(paths) };
}

async function getJson<T>(base: string, url: string): Promise<T> {
  const response = await fetch(base + url, { headers: LOOKUP_HEADERS });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The shapes, with values that exist in the served data set looked up through the API itself. */
export async function buildShapes(base: string, real: SeedFiles): Promise<Shape[]> {
  const inBranches = real.branchFiles.flatMap((f) => f.records).filter((r) => r.country === 'IN').length;
  const locationWords = wordRows(real, 'IN', 'address_line1');
  const branchNameWords = wordRows(real, 'IN', 'branch_name');
  const bankWords = ['allahabad', 'andhra', 'baroda', 'cooperative', 'akola', 'grameena'];

  const office = { receivingCountry: 'IN', deliveryMode: '04', receivingAgentHeadOfficeCode: 'ICICIN' };
  type BranchPage = { data: { routingNumber: string | null; bankName: string }[] };
  const firstBranches = await getJson<BranchPage>(base, path('banks/branches', { ...office, pageSize: 1000 }));
  const routingNumbers = spread(
    firstBranches.data.map((b) => b.routingNumber).filter((r): r is string => !!r),
    50,
  );
  const mxStates = (
    await getJson<{ data: { code: string }[] }>(base, path('states', { receivingCountry: 'MX' }))
  ).data.map((s) => s.code);
  type AgentPage = { data: { agentName: string }[] };
  const someAgents = await getJson<AgentPage>(
    base,
    path('agents', { receivingCountry: 'MX', deliveryMode: 1, pageNumber: 7, pageSize: 1000 }),
  );
  const agentNames = spread(
    someAgents.data.map((a) => a.agentName),
    50,
  );
  const agentWordCounts = new Map<string, number>();
  for (const a of someAgents.data)
    for (const w of new Set(a.agentName.match(/\p{L}{4,}/gu) ?? []))
      agentWordCounts.set(w, (agentWordCounts.get(w) ?? 0) + 1);
  const agentWords = spread(
    [...agentWordCounts]
      .filter(([, n]) => n >= 3)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([w]) => w),
    20,
  );
  const rareBranchNames = rareWords(branchNameWords).map((w) => w.toUpperCase());

  const typical = typicalWords(locationWords, inBranches);
  const { inBankWords, placeWords, paths: distinctBranches } = distinctBranchSearches(real);
  const mexico = { receivingCountry: 'MX', deliveryMode: '01' };
  const countries = ['MX', 'IN', 'BD', 'NG', 'PH', 'NP'];
  const branches = (query: Record<string, string | number>) => path('banks/branches', { ...office, ...query });

  // Code lookups: distinct real codes as a teller pastes them, spread over the whole data set —
  // IFSCs (every third typed lower case with spaces), Bangladesh routing numbers, agent codes of several
  // countries, bank codes — and, for the real IFSCs the India extract does not hold, Razorpay's list.
  type Paged<T> = { data: T[]; pagination: { totalPages: number } };
  const pagesOf = async <T>(endpoint: string, query: Record<string, string | number>, pages: number): Promise<T[]> => {
    const first = await getJson<Paged<T>>(base, path(endpoint, { ...query, pageSize: 1000 }));
    const rest = spread(
      Array.from({ length: Math.max(0, first.pagination.totalPages - 1) }, (_, i) => i + 2),
      pages - 1,
    );
    const more = await Promise.all(
      rest.map((pageNumber) => getJson<Paged<T>>(base, path(endpoint, { ...query, pageSize: 1000, pageNumber }))),
    );
    return [first, ...more].flatMap((page) => page.data);
  };
  const ifscs = spread(
    (await pagesOf<{ routingNumber: string | null }>('banks/branches', office, 4)).flatMap((b) =>
      b.routingNumber ? [b.routingNumber] : [],
    ),
    2000,
  );
  const bdRouting = spread(
    (
      await pagesOf<{ routingNumber: string | null }>(
        'banks/branches',
        { receivingCountry: 'BD', deliveryMode: '04', receivingAgentHeadOfficeCode: 'BRACBD' },
        3,
      )
    ).flatMap((b) => (b.routingNumber ? [b.routingNumber] : [])),
    1000,
  );
  const agentCodes = (
    await Promise.all(
      (['MX', 'PH', 'BD'] as const).map((receivingCountry) =>
        pagesOf<{ agentCode: string }>('agents', { receivingCountry, deliveryMode: '01' }, 2),
      ),
    )
  ).flatMap((agents) =>
    spread(
      agents.map((a) => a.agentCode),
      400,
    ),
  );
  const bankCodes = [...new Set(real.branchFiles.flatMap((f) => f.records).map((r) => r.bank_code))];
  const issuedNotHeld = ['HDFC0000001', 'UTIB0000001', 'KKBK0000131', 'PUNB0000100', 'YESB0000001'];
  const pasted = (code: string, i: number) =>
    i % 3 === 0 && code.length > 8 ? `${code.slice(0, 4).toLowerCase()} ${code.slice(4).toLowerCase()}` : code;
  const codePaths = [...ifscs, ...bdRouting, ...agentCodes, ...bankCodes, ...issuedNotHeld].map(
    (code, i) => `/v1/codes/${encodeURIComponent(pasted(code, i))}`,
  );
  const browseOffices = [
    office,
    { receivingCountry: 'BD', deliveryMode: '04', receivingAgentHeadOfficeCode: 'SONLBD' },
    { receivingCountry: 'NG', deliveryMode: '04', receivingAgentHeadOfficeCode: 'FRBKNG' },
  ];
  type Browse = { facets: { banks: { bankCode: string }[]; states: { code: string }[] } };
  const browsePaths: string[] = [];
  for (const scope of browseOffices) {
    const banks = (await getJson<Browse>(base, path('banks/browse', { ...scope, pageSize: 1 }))).facets.banks;
    for (const { bankCode } of spread(banks, 8)) {
      browsePaths.push(path('banks/browse', { ...scope, bankCode }));
      const states = (await getJson<Browse>(base, path('banks/browse', { ...scope, bankCode, pageSize: 1 }))).facets
        .states;
      for (const { code: state } of spread(states, 4))
        browsePaths.push(path('banks/browse', { ...scope, bankCode, state }));
    }
  }

  return [
    {
      name: 'branches: typical, distinct',
      query: `ICICIN bankName=<${inBankWords.length} bank words>&branchLocation=<${placeWords.length} place words>&pageNumber=1|2`,
      paths: distinctBranches,
    },
    {
      name: 'agents: typical, distinct',
      query: `MX 01 state=<${mxStates.length} states>&search=<${agentWords.length} name words>&pageNumber=1|2`,
      paths: shuffled(
        mxStates.flatMap((state) =>
          agentWords.flatMap((search) =>
            [1, 2].map((pageNumber) => path('agents', { ...mexico, state, search, pageNumber })),
          ),
        ),
      ),
    },
    {
      name: 'codes: distinct real codes',
      query: `codes/<${ifscs.length} IFSCs, ${bdRouting.length} BD routing numbers, ${agentCodes.length} agent codes, ${bankCodes.length} bank codes, ${issuedNotHeld.length} IFSCs not held>`,
      paths: shuffled(codePaths),
    },
    {
      name: 'browse: bank, then state',
      query: 'banks/browse ICICIN|SONLBD|FRBKNG bankCode=<bank>[&state=<state>]',
      paths: browsePaths,
    },
    { name: 'branches: head office only', query: 'banks/branches ICICIN', paths: [branches({})] },
    {
      name: 'branches: exact routing number',
      query: 'bankCode=<IFSC> (50 rotating)',
      paths: routingNumbers.map((r) => branches({ bankCode: r })),
    },
    {
      name: 'branches: exact bank code',
      query: 'FDRLIN bankCode=<bank> (rotating)',
      paths: ['ALLA', 'ANDB', 'BARB', 'BKID', 'CBIN', 'IDIB'].map((b) =>
        branches({ receivingAgentHeadOfficeCode: 'FDRLIN', bankCode: b }),
      ),
    },
    {
      name: 'branches: typical (bank name + branch location)',
      query: 'bankName=<word>&branchLocation=<town/street word>',
      paths: bankWords.flatMap((bankName) => typical.map((branchLocation) => branches({ bankName, branchLocation }))),
    },
    {
      name: 'branches: branchLocation rare term',
      query: 'branchLocation=<word in 2–4 real rows>',
      paths: rareWords(locationWords).map((w) => branches({ branchLocation: w })),
    },
    {
      name: 'branches: branchLocation common term',
      query: 'branchLocation=<most frequent words>',
      paths: commonWords(locationWords).map((w) => branches({ branchLocation: w })),
    },
    {
      name: 'branches: district (BD)',
      query: 'BRACBD district=<district word>',
      paths: spread(
        wordRows(real, 'BD', 'district').map(([w]) => w),
        16,
      ).map((district) =>
        path('banks/branches', {
          receivingCountry: 'BD',
          deliveryMode: '04',
          receivingAgentHeadOfficeCode: 'BRACBD',
          district,
        }),
      ),
    },
    { name: 'branches: deep page', query: 'pageNumber=1000', paths: [branches({ pageNumber: 1000 })] },
    // Pages 1–20 in turn: the same work each time (nothing is cached), but every answer a different one.
    {
      name: 'branches: pageSize 1000',
      query: 'pageSize=1000&pageNumber=1…20',
      paths: pages(20).map((pageNumber) => branches({ pageSize: 1000, pageNumber })),
    },
    { name: 'agents: country + mode', query: 'agents MX 01', paths: [path('agents', mexico)] },
    {
      name: 'agents: country + state',
      query: 'agents MX 01 state=<state> (rotating)',
      paths: mxStates.map((state) => path('agents', { ...mexico, state })),
    },
    {
      name: 'agents: search rare (agent name)',
      query: "search=<an agent's full name>",
      paths: agentNames.map((search) => path('agents', { ...mexico, search })),
    },
    {
      name: 'agents: search common (network)',
      query: 'search=OXXO|Elektra|Walmart|Telecomm|Azteca',
      paths: ['OXXO', 'Elektra', 'Walmart', 'Telecomm', 'Azteca'].map((search) =>
        path('agents', { ...mexico, search }),
      ),
    },
    {
      name: 'agents: [Bank Name], [Branch Name]',
      query: 'IN 04 search="<BANK>, <BRANCH>"',
      paths: ['ALLAHABAD BANK', 'ANDHRA BANK', 'BANK OF BARODA'].flatMap((bank) =>
        rareBranchNames
          .slice(0, 12)
          .map((branch) =>
            path('agents', { receivingCountry: 'IN', deliveryMode: '04', search: `${bank}, ${branch}` }),
          ),
      ),
    },
    {
      name: 'agents: deep page',
      query: 'MX 01 pageNumber=1000',
      paths: [path('agents', { ...mexico, pageNumber: 1000 })],
    },
    {
      name: 'agents: pageSize 1000',
      query: 'MX 01 pageSize=1000&pageNumber=1…20',
      paths: pages(20).map((pageNumber) => path('agents', { ...mexico, pageSize: 1000, pageNumber })),
    },
    {
      name: 'payout networks',
      query: 'payout-networks <country> 01/04',
      paths: countries.map((c) =>
        path('payout-networks', { receivingCountry: c, deliveryMode: c === 'IN' ? '04' : '01' }),
      ),
    },
    { name: 'reference: receiving countries', query: 'receiving-countries', paths: ['/v1/receiving-countries'] },
    {
      name: 'reference: delivery modes',
      query: 'types?filter=delivery-modes',
      paths: ['/v1/types?filter=delivery-modes'],
    },
    {
      name: 'reference: states',
      query: 'states <country> (rotating)',
      paths: countries.map((c) => path('states', { receivingCountry: c })),
    },
  ];
}
