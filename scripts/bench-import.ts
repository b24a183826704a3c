import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { openStore, SQLITE_FILE_NAME } from '../src/server/open-store';
import type { ImportReport } from '../src/server/desk/shell-import';
import { writeLargeBangladeshBranchFile } from '../src/testing/large-branch-file';
import { BENCH_DIR } from './lib/store-options';

// npm run bench:import -- [--rows 300000,1000000] [--runs 3] [--out docs/benchmarks/import.md]
// Measures the import command as operators run it (its own process, the real SQLite file): a large valid
// Bangladesh branch file of each size, imported into a fresh copy of the seeded store, several runs each.
// Writes and prints a markdown table with the median and every run.

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '300000,1000000' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string', default: join('docs', 'benchmarks', 'import.md') },
  },
});
const sizes = values.rows.split(',').map(Number);
const runs = Number(values.runs);
if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(runs) || runs < 1) {
  console.error('usage: npm run bench:import -- [--rows 300000,1000000] [--runs 3] [--out file.md]');
  process.exit(2);
}

const TARGET_ROWS_PER_SECOND = 50_000;
const dir = join(BENCH_DIR, 'import');
mkdirSync(dir, { recursive: true });

// The seeded store every run starts from (the shipped data: 24,114 branches, 40 head offices, 25,120 agents).
const seeded = join(dir, 'seeded', SQLITE_FILE_NAME);
rmSync(dirname(seeded), { recursive: true, force: true });
await (await openStore({ dataDir: dirname(seeded) })).close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const loadBefore = load();
const rows: string[] = [];
for (const size of sizes) {
  const file = join(dir, `bd-${size}.csv`);
  if (!existsSync(file)) await writeLargeBangladeshBranchFile(file, size);
  const reports: ImportReport[] = [];
  for (let run = 1; run <= runs; run++) {
    const dataDir = join(dir, 'run');
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(seeded, join(dataDir, SQLITE_FILE_NAME));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join('scripts', 'import.ts'), 'branches', file, '--json', '--allow-removals'],
      {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        maxBuffer: 64 * 2 ** 20,
      },
    );
    const report = JSON.parse(stdout) as ImportReport;
    reports.push(report);
    const s = report.seconds;
    console.error(`${size} rows, run ${run}: staged at ${s.staged.toFixed(2)} s, published at ${s.total.toFixed(2)} s`);
  }
  const total = median(reports.map((r) => r.seconds.total));
  const perSecond = (seconds: number) => Math.round(size / seconds);
  const cell = (pick: (r: ImportReport) => number) => reports.map((r) => pick(r).toFixed(2)).join(' · ');
  rows.push(
    `| ${size.toLocaleString('en')} | ${perSecond(total).toLocaleString('en')} | ${total.toFixed(2)} | ` +
      `${cell((r) => r.seconds.staged)} | ${cell((r) => r.seconds.total)} | ${perSecond(total) >= TARGET_ROWS_PER_SECOND ? 'met' : 'missed'} |`,
  );
}

const markdown = `# Benchmark: import

- When: ${new Date().toISOString()}; store: SQLite; \`npm run bench:import -- --rows ${values.rows} --runs ${runs}\`
- Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average before ${loadBefore}, after ${load()} (1/5/15 min)
- What: \`npm run import -- branches <file>\` in its own process, as operators run it, of a valid Bangladesh branch file
  (\`npm run generate:branches\`) into a fresh copy of the store seeded with the shipped data; ${runs} runs per size.
- Columns: rows/s from the start to the publish (the new set served, its version and history recorded); the
  median, then each run's times in seconds from the start (staged: read, validated and compared with what is
  served; published: built, swapped in and recorded).
- Target: at least ${TARGET_ROWS_PER_SECOND.toLocaleString('en')} rows/s into SQLite.

| Rows | rows/s | published s | staged at s (runs) | published at s (runs) | Target |
|--:|--:|--:|---|---|---|
${rows.join('\n')}
`;
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, markdown);
console.log(markdown);
rmSync(join(dir, 'run'), { recursive: true, force: true });
