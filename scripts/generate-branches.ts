import { parseArgs } from 'node:util';
import { writeLargeBangladeshBranchFile } from '../src/testing/large-branch-file';

// npm run generate:branches -- <rows> <out.csv>: a large valid Bangladesh branch file to measure imports.
async function main() {
  const { positionals } = parseArgs({ allowPositionals: true });
  const rows = Number(positionals[0]);
  if (positionals.length !== 2 || !Number.isInteger(rows) || rows < 1 || rows > 5_000_000) {
    console.error('usage: npm run generate:branches -- <rows (1–5000000)> <out.csv>');
    process.exit(2);
  }
  await writeLargeBangladeshBranchFile(positionals[1], rows);
  console.error(`wrote ${rows} Bangladesh branches to ${positionals[1]}`);
}

void main();
