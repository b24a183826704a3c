import { expect, it } from 'vitest';
import type { DiffSummary } from '../../../contract/ops-changes';
import { KIND_SCOPE, removalGuard } from '../diff';
import { REMOVAL_WINDOW_MS, nextLedger, removalHistory, type RemovalLedger } from '../removal-ledger';

// The guard's ledger across publishes, with the clock given: removals add up per country until a checker confirms
// them there, or until they are older than the window (the count then starts at the version in force back then).

const DAY = 24 * 3_600_000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (days: number) => new Date(T0 + days * DAY).toISOString();

/** A branch change's difference: per country [served before, added, removed]; the kind served `kindServed`. */
function change(countries: Record<string, [number, number, number]>, kindServed: number, history = {}) {
  const byCountry = Object.entries(countries).map(([country, [, added, removed]]) => ({
    country,
    bankCode: null,
    added,
    removed,
    changed: 0,
  }));
  const counts = byCountry.reduce(
    (sum, c) => ({ added: sum.added + c.added, removed: sum.removed + c.removed, changed: 0 }),
    { added: 0, removed: 0, changed: 0 },
  );
  const served = {
    ...Object.fromEntries(Object.entries(countries).map(([country, [before]]) => [country, before])),
    [KIND_SCOPE]: kindServed,
  };
  const summary = { counts, byCountry, unchanged: 0 } as Omit<DiffSummary, 'guard'>;
  return { summary: { ...summary, guard: removalGuard(summary, served, history) }, served };
}

const flagsOf = (c: ReturnType<typeof change>) => c.summary.guard.flags.map((f) => [f.country, f.removed, f.served]);

it('adds up removals across publishes until one is confirmed, then counts from the confirmed version', () => {
  let ledger: RemovalLedger = {};
  const first = change({ BD: [10_000, 0, 1_500] }, 24_000);
  expect(first.summary.guard.flagged).toBe(false);
  ledger = nextLedger(ledger, first, false, at(0));

  const second = change({ BD: [8_500, 0, 1_500] }, 22_500, removalHistory(ledger, new Date(at(1))));
  expect(flagsOf(second)).toEqual([['BD', 3_000, 10_000]]);
  ledger = nextLedger(ledger, second, true, at(1));

  const third = change({ BD: [7_000, 0, 1_000] }, 21_000, removalHistory(ledger, new Date(at(2))));
  expect(third.summary.guard.flagged).toBe(false);
  ledger = nextLedger(ledger, third, false, at(2));
  const fourth = change({ BD: [6_000, 0, 500] }, 20_000, removalHistory(ledger, new Date(at(3))));
  expect(flagsOf(fourth)).toEqual([['BD', 1_500, 7_000]]);
});

it('counts from the version in force 7 days back: older removals drop out of the count', () => {
  let ledger: RemovalLedger = {};
  ledger = nextLedger(ledger, change({ BD: [10_000, 0, 1_500] }, 24_000), false, at(0));
  ledger = nextLedger(ledger, change({ BD: [8_500, 0, 400] }, 22_500), false, at(3));
  // Six days after the first: both count, against the 10,000 served before it.
  expect(removalHistory(ledger, new Date(at(6)))).toMatchObject({ BD: { base: 10_000, removed: 1_900 } });
  // Eight days after: the first is out of the window; the version then in force served 8,500.
  expect(removalHistory(ledger, new Date(at(8)))).toMatchObject({ BD: { base: 8_500, removed: 400 } });
  // 1,200 more: 1,600 of 8,500 (18.8 %) is under the guard; counted from day 0 it would be 31 %.
  const later = change({ BD: [8_100, 0, 1_200] }, 22_000, removalHistory(ledger, new Date(at(8))));
  expect(later.summary.guard.flagged).toBe(false);
  expect(flagsOf(change({ BD: [8_100, 0, 1_200] }, 22_000, removalHistory(ledger, new Date(at(6)))))).toEqual([
    ['BD', 3_100, 10_000],
  ]);
});

it('a confirmation resets only the countries it was flagged for; rows added meanwhile never raise the base', () => {
  let ledger: RemovalLedger = {};
  // IN loses 15 %; BD gains 5,000 rows (padding), then loses 3,000 of them and 1,000 more in one change.
  ledger = nextLedger(ledger, change({ IN: [20_000, 0, 3_000], BD: [10_000, 5_000, 0] }, 30_000), false, at(0));
  const bdCut = change({ BD: [15_000, 0, 2_500] }, 32_000, removalHistory(ledger, new Date(at(1))));
  // 2,500 of what BD served before the padding (10,000): 25 %, though only 16.7 % of the 15,000 served now.
  expect(flagsOf(bdCut)).toEqual([['BD', 2_500, 10_000]]);
  ledger = nextLedger(ledger, bdCut, true, at(1));
  // IN was not in the confirmed flags: its 15 % still counts (and the kind's, which was not flagged either).
  const inCut = change({ IN: [17_000, 0, 1_200] }, 29_500, removalHistory(ledger, new Date(at(2))));
  expect(flagsOf(inCut)).toEqual([
    ['IN', 4_200, 20_000],
    [null, 6_700, 30_000],
  ]);
  expect(removalHistory(ledger, new Date(at(2)))).toMatchObject({ BD: { base: 12_500, removed: 0 } });
});

it('keeps no entry older than the window', () => {
  let ledger: RemovalLedger = {};
  ledger = nextLedger(ledger, change({ BD: [10_000, 0, 100] }, 24_000), false, at(0));
  ledger = nextLedger(
    ledger,
    change({ IN: [20_000, 0, 100] }, 23_900),
    false,
    new Date(T0 + REMOVAL_WINDOW_MS + 1).toISOString(),
  );
  expect(Object.keys(ledger).sort()).toEqual([KIND_SCOPE, 'IN']);
  expect(ledger[KIND_SCOPE]).toHaveLength(1);
});
