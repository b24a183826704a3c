import {
  QUALITY_CHECKS,
  type ChangeQuality,
  type QualityCheckResult,
  type QualityFinding,
} from '../../contract/ops-quality';
import type { ChangeKind } from '../../contract/ops-changes';
import type { AgentRow, BranchRow, DataSet, HeadOfficeRow } from '../domain/data-set';
import type { KindRow } from '../importer/kinds';
import type { DeskDb } from './db';
import type { Difference } from './diff';
import {
  bankFindings,
  banksOf,
  branchStateNotListed,
  branchWithoutDistrict,
  duplicateRoutingNumber,
  listedStates,
  qualityFindings,
} from './quality';

// The data-quality checks (quality.ts) on a staged change: what would be served if it were approved, less what
// is served now — the findings the change would ADD, so a checker sees them before approving. Run where the
// change is staged (prepare.ts: the staging worker for a large file), as its rows stream by:
// - branches (a million rows): each good row's own checks (district, state, a routing number repeated in the
//   file) as it comes, and at the end the banks' checks on the branches per bank the difference leaves
//   (served + added − removed); no row is held;
// - head offices and agents (small kinds): their rows are held and the whole staged data set is checked.
// A finding is new when what is served has no finding of the same check, record, code, name, field and value.

/** Findings kept per check (the change page shows them; the count is of all). */
const EXAMPLES = 20;

const identity = (f: QualityFinding) =>
  [f.check, f.record, f.country, f.code, f.name, f.field, f.value].map((p) => p ?? '').join('\u001f');

export class StagedQuality {
  private readonly found: QualityFinding[] = [];
  private readonly rows: KindRow[] = [];
  private readonly states: ReadonlySet<string>;
  private readonly bankNames = new Map<string, string>();

  constructor(
    private readonly kind: ChangeKind,
    private readonly served: DataSet,
  ) {
    this.states = kind === 'branches' ? listedStates(served) : new Set();
  }

  /** A good row of the file; `occurrence`: which record of its key it is (over 1: the key repeats). */
  row(row: KindRow, occurrence: number): void {
    if (this.kind !== 'branches') {
      this.rows.push(row);
      return;
    }
    const b = row as BranchRow;
    if (occurrence > 1 && b.routingNumber) this.found.push(duplicateRoutingNumber(b));
    const district = branchWithoutDistrict(b);
    if (district) this.found.push(district);
    const state = branchStateNotListed(b, this.states);
    if (state) this.found.push(state);
    const bank = `${b.country}|${b.bankCode}`;
    if (!this.bankNames.has(bank)) this.bankNames.set(bank, b.bankName);
  }

  /** The new findings, once the difference is known. */
  finish(diff: Difference): ChangeQuality {
    // The checks the change cannot touch are left out of both sides: agents' of a branch or head-office change,
    // branches' of an agent change (the same on both sides, they would cancel out).
    const served =
      this.kind === 'agents' ? { ...this.served, branches: [] } : { ...this.served, agents: [] as AgentRow[] };
    const servedFindings = qualityFindings(served);
    let staged: QualityFinding[];
    if (this.kind === 'branches') {
      const banks = banksOf(this.served.branches);
      for (const g of diff.byBank) {
        const key = `${g.country}|${g.bankCode}`;
        banks.count.set(key, (banks.count.get(key) ?? 0) + g.added - g.removed);
        if (!banks.name.has(key)) banks.name.set(key, this.bankNames.get(key) ?? g.bankCode ?? '');
      }
      staged = [...this.found, ...bankFindings(banks, this.served.headOffices)];
    } else {
      const dataSet =
        this.kind === 'partners'
          ? { ...served, headOffices: this.rows as HeadOfficeRow[] }
          : { ...served, agents: this.rows as AgentRow[] };
      staged = qualityFindings(dataSet);
    }
    return newFindings(staged, servedFindings);
  }
}

/** The staged findings that are not served findings, counted per check with the first few of each. */
export function newFindings(staged: readonly QualityFinding[], served: readonly QualityFinding[]): ChangeQuality {
  const known = new Set(served.map(identity));
  const byCheck = new Map<string, QualityCheckResult>();
  let total = 0;
  for (const f of staged) {
    if (known.has(identity(f))) continue;
    total++;
    let result = byCheck.get(f.check);
    if (!result) byCheck.set(f.check, (result = { check: f.check, count: 0, examples: [] }));
    result.count++;
    if (result.examples.length < EXAMPLES) result.examples.push(f);
  }
  const checks = QUALITY_CHECKS.flatMap((check) => byCheck.get(check) ?? []);
  return { computed: true, total, checks };
}

export const NOT_CHECKED: ChangeQuality = { computed: false, total: 0, checks: [] };

/** Keeps a staged change's new findings (replacing any earlier: a re-diff checks again). */
export async function saveChangeQuality(db: DeskDb, changeId: string, quality: ChangeQuality | null): Promise<void> {
  await db.run('DELETE FROM desk_change_quality WHERE change_id = ?', [changeId]);
  if (quality)
    await db.run('INSERT INTO desk_change_quality (change_id, report) VALUES (?, ?)', [
      changeId,
      JSON.stringify(quality),
    ]);
}

export async function readChangeQuality(db: DeskDb, changeId: string): Promise<ChangeQuality> {
  const [row] = await db.all('SELECT report FROM desk_change_quality WHERE change_id = ?', [changeId]);
  return row ? (JSON.parse(String(row.report)) as ChangeQuality) : NOT_CHECKED;
}
