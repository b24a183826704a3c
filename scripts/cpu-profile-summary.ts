import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';

// npm run profile:summary -- <file.cpuprofile> [--top 25] [--skip seconds] [--window fromUs,toUs] [--stacks n]
// The top frames of a V8 CPU profile (node --cpu-prof; npm run bench -- --cpu-prof dir) by self time, as a
// markdown table: where the server's own CPU went, not counting what the functions it called took. --skip
// leaves out the first seconds of the profile (the start, before the load the table is about). --window keeps
// only the samples between two monotonic times in µs (the profile's clock: process.hrtime's, as the staging
// bench prints them for the event loop's stalls); --stacks prints the n most sampled stacks in it as well.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    skip: { type: 'string', default: '0' },
    window: { type: 'string' },
    stacks: { type: 'string', default: '0' },
  },
});
if (positionals.length !== 1) {
  console.error('usage: npm run profile:summary -- <file.cpuprofile> [--top 25] [--skip seconds]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const frameOf = (id: number) => {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const where = url ? `${relative(process.cwd(), url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'}\t${where}`;
};
const selfUs = new Map<string, number>();
const stackUs = new Map<string, number>();
let total = 0;
let at = 0;
let clock = profile.startTime;
const skipUs = Number(values.skip) * 1e6;
const [fromUs, toUs] = values.window ? values.window.split(',').map(Number) : [-Infinity, Infinity];
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  clock += delta;
  if (at < skipUs || clock < fromUs || clock > toUs) return;
  const key = frameOf(id);
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
  total += delta;
  if (Number(values.stacks) > 0 && !key.startsWith('(idle)')) {
    const frames: string[] = [];
    for (let n: number | undefined = id; n !== undefined && frames.length < 14; n = parentOf.get(n))
      frames.push(
        frameOf(n)
          .replace('\t', ' ')
          .replace(/.*node_modules\//, ''),
      );
    const stack = frames.join(' < ');
    stackUs.set(stack, (stackUs.get(stack) ?? 0) + delta);
  }
});
// Idle time is not the server's work: shares are of the busy time.
const busy = total - (selfUs.get('(idle)\t') ?? 0);
console.log(`Busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s sampled.\n`);
console.log('| Self % of busy | Self ms | Function | Where |\n|--:|--:|---|---|');
for (const [key, us] of [...selfUs]
  .filter(([key]) => !key.startsWith('(idle)'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(values.top))) {
  const [name, where] = key.split('\t');
  console.log(
    `| ${((100 * us) / busy).toFixed(1)} | ${(us / 1000).toFixed(0)} | ${name} | ${where.replace(/.*node_modules\//, '')} |`,
  );
}

if (Number(values.stacks) > 0) {
  console.log('\nMost sampled stacks (innermost first):\n');
  for (const [stack, us] of [...stackUs].sort((a, b) => b[1] - a[1]).slice(0, Number(values.stacks)))
    console.log(`- ${(us / 1000).toFixed(0)} ms: ${stack}`);
}
