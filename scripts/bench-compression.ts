import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { branchesQuery, DEFAULT_PAGE_SIZE } from '../src/contract';
import { COMPRESS_THRESHOLD_BYTES } from '../src/server/plugins/external/compress';
import { buildSearchIndex } from '../src/server/search/build';
import { SearchIndex } from '../src/server/search/search-index';
import { buildSeedDataSet, readSeedFiles } from '../src/server/seed/seed';
import { distinctBranchSearches } from './lib/bench-shapes';

// npm run bench:compression -- [--answers n] [--rounds 3]
// What each Brotli quality and gzip level costs per answer, and what it saves, on the answers the server
// compresses per request: the bench's distinct branch searches (scripts/lib/bench-shapes.ts), written by the
// real search index over the real data (data/seed), those over the compression threshold. One core, one
// synchronous call per answer, as @fastify/compress does below its syncThreshold (compress.ts).

const { values } = parseArgs({
  options: { answers: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '3' } },
});

const index = new SearchIndex(buildSearchIndex(buildSeedDataSet(), 'bench'));
const { paths } = distinctBranchSearches(readSeedFiles());
const answers = paths
  .slice(0, Number(values.answers))
  .map((path) => {
    const query = branchesQuery.parse(Object.fromEntries(new URL(path, 'http://bench/').searchParams));
    const search = { ...query, pageNumber: query.pageNumber ?? 1, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE };
    return Buffer.from(index.branchesJson(search, (length) => Buffer.alloc(length)));
  })
  .filter((body) => body.length >= COMPRESS_THRESHOLD_BYTES);
const bytes = answers.reduce((sum, body) => sum + body.length, 0);

type Compress = (body: Buffer) => Buffer;
const brotli =
  (quality: number): Compress =>
  (body) =>
    brotliCompressSync(body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: quality,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
const gzip =
  (level: number): Compress =>
  (body) =>
    gzipSync(body, { level });
const variants: [string, Compress][] = [
  ...[0, 1, 2, 4, 6].map((q): [string, Compress] => [`Brotli ${q}`, brotli(q)]),
  ...[1, 4, 6].map((l): [string, Compress] => [`gzip ${l}`, gzip(l)]),
];

console.log(`${answers.length} answers of ${(bytes / answers.length / 1024).toFixed(1)} KB on average (real data)`);
console.log('\n| encoding | µs per answer | compressed ÷ original |\n|---|--:|--:|');
for (const [name, compress] of variants) {
  let best = Infinity;
  let out = 0;
  for (let round = 0; round < Number(values.rounds); round++) {
    out = 0;
    const started = performance.now();
    for (const body of answers) out += compress(body).length;
    best = Math.min(best, ((performance.now() - started) * 1000) / answers.length);
  }
  console.log(`| ${name} | ${best.toFixed(1)} | ${(out / bytes).toFixed(3)} |`);
}
