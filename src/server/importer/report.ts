import type { ImportReport } from './importer';

// The import report as people read it: every problem on its own line (line, column, reason), then one
// summary line with the outcome and the speed.

export function formatReport(report: ImportReport): string {
  const lines = report.problems.map((p) => `${report.file}:${p.line ?? '-'} ${p.column ?? '(row)'}: ${p.reason}`);
  const outcome = report.applied
    ? `applied: replaced ${report.scope}`
    : `NOT applied (${report.notApplied ?? 'no changes'}); the served data is unchanged`;
  const s = report.seconds;
  const timing = report.applied
    ? `committed at ${s.commit.toFixed(2)} s (read ${s.read.toFixed(2)}, validated at ${s.validate.toFixed(2)}${report.parallel ? ' in a worker while writing' : ''}, ` +
      `write ${s.write.toFixed(2)}), ${report.rowsPerSecond} rows/s to commit; done at ${s.total.toFixed(2)} s after the store's housekeeping`
    : `${s.total.toFixed(2)} s (read ${s.read.toFixed(2)}, validated at ${s.validate.toFixed(2)}), ${report.rowsPerSecond} rows/s`;
  lines.push(
    `${report.kind} ${report.file}: ${report.rowsRead} rows read, ${report.rowsValid} valid, ${report.rowsBad} bad; ${outcome}. ${timing}. sha256 ${report.sha256}`,
  );
  return lines.join('\n');
}
