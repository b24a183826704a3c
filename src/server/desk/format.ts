import type { ChangeKind, DiffSummary } from '../../contract/ops-changes';
import { describeGuard } from './diff';

// The difference as the import command prints it (the desk shows the same counts on its screens).

export function formatDifference(kind: ChangeKind, summary: DiffSummary, baseVersion: string): string {
  const { added, removed, changed } = summary.counts;
  const lines = [
    `difference against the published data (data version ${baseVersion}): ${added} added, ${removed} removed, ${changed} changed, ${summary.unchanged} unchanged`,
    ...summary.byCountry.map((c) => `  ${c.country}: ${c.added} added, ${c.removed} removed, ${c.changed} changed`),
  ];
  if (summary.guard.flagged)
    lines.push(
      `REMOVAL GUARD: this file removes ${describeGuard(summary, kind)}, more than ${summary.guard.threshold * 100} %`,
    );
  return lines.join('\n');
}
