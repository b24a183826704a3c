import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// Prints every chunk of the built portal with its gzip size and sums the initial JavaScript: the entry
// script and the chunks index.html preloads, i.e. what a teller downloads before the first screen. Screens
// are lazy route chunks and do not count. Fails when the initial JS is over the budget.
// Usage: npm run size            (builds when dist/portal is missing)
//        npm run size -- --build (always builds first)

export const INITIAL_JS_BUDGET_KB = 250;
const portalDir = join(process.cwd(), 'dist', 'portal');

export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
  initial: boolean;
}

/** The JS files index.html loads at once: module scripts and modulepreload links. */
export function initialScripts(indexHtml: string): string[] {
  const found = new Set<string>();
  for (const match of indexHtml.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) found.add(match[1]);
  for (const match of indexHtml.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) found.add(match[1]);
  return [...found].map((src) => src.replace(/^\//, ''));
}

export function measure(dir = portalDir): { chunks: ChunkSize[]; initialGzipBytes: number } {
  const initial = new Set(initialScripts(readFileSync(join(dir, 'index.html'), 'utf8')));
  const assets = readdirSync(join(dir, 'assets')).filter((file) => file.endsWith('.js'));
  const chunks = assets
    .map((name) => {
      const file = `assets/${name}`;
      const content = readFileSync(join(dir, file));
      return {
        file,
        bytes: content.length,
        gzipBytes: gzipSync(content, { level: 9 }).length,
        initial: initial.has(file),
      };
    })
    .sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzipBytes - a.gzipBytes);
  const initialGzipBytes = chunks.filter((c) => c.initial).reduce((sum, c) => sum + c.gzipBytes, 0);
  return { chunks, initialGzipBytes };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7);

function main() {
  if (process.argv.includes('--build') || !existsSync(join(portalDir, 'index.html'))) {
    execSync('npx vite build', { stdio: 'inherit' });
  }
  const { chunks, initialGzipBytes } = measure();
  console.log(`${'chunk'.padEnd(48)} ${'raw KB'.padStart(7)} ${'gzip KB'.padStart(7)}  load`);
  for (const c of chunks)
    console.log(`${c.file.padEnd(48)} ${kb(c.bytes)} ${kb(c.gzipBytes)}  ${c.initial ? 'initial' : 'lazy'}`);
  const total = initialGzipBytes / 1024;
  console.log(`\nInitial JS: ${total.toFixed(1)} KB gzip (budget ${INITIAL_JS_BUDGET_KB} KB)`);
  if (total > INITIAL_JS_BUDGET_KB) {
    console.error(`Initial JS is over the budget by ${(total - INITIAL_JS_BUDGET_KB).toFixed(1)} KB gzip.`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
