import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants as zlib } from 'node:zlib';

const apiPort = process.env.API_PORT ?? '8080';

/**
 * index.html preloads the portal's chunks (start.tsx and every chunk it imports statically): the entry, main.ts,
 * imports them only after the shell's first paint, and without these links the browser would learn of them
 * only then, a round trip later.
 */
function preloadPortal(): Plugin {
  return {
    name: 'preload-portal',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const start = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/src/portal/start.tsx'));
        if (!start) return html;
        const files = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          for (const imported of chunks.find((chunk) => chunk.fileName === file)?.imports ?? []) visit(imported);
        };
        visit(start.fileName);
        const links = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
        return html.replace('</head>', `    ${links.join('\n    ')}\n  </head>`);
      },
    },
  };
}

/**
 * `locales/xx.json?teller`: the catalogue without its `ops`, `slip` and `tellerReport` blocks. The teller's first
 * load carries only the teller's texts; the operations desk, the customer slip and the report dialog (lazy chunks)
 * add their block when they open (lib/ops-i18n.ts, features/customer-slip/slip-i18n.ts).
 * `?slip`: only the `slip` block (the slip's chunk carries its texts, not the desk's); `?report`: only the
 * `tellerReport` block (the teller's "report a problem" dialog, features/teller-report/report-i18n.ts).
 * `?name`: only the language's own name (the language switch lists every language without fetching their
 * catalogues, src/portal/lib/i18n.ts). One catalogue file per language all the same (docs/i18n.md).
 */
function tellerCatalogue(): Plugin {
  return {
    name: 'teller-catalogue',
    enforce: 'pre',
    transform(code, id) {
      const query = /\/locales\/[\w-]+\.json\?(teller|name|slip|report)$/.exec(id)?.[1];
      if (!query) return null;
      const {
        ops: _ops,
        slip,
        tellerReport,
        ...teller
      } = JSON.parse(code) as { ops: unknown; slip: unknown; tellerReport: unknown; language: { name: string } };
      const value =
        query === 'name' ? teller.language.name : query === 'slip' ? slip : query === 'report' ? tellerReport : teller;
      return { code: `export default ${JSON.stringify(value)};`, map: null, moduleType: 'js' };
    },
  };
}

/**
 * The teller's first load in one chunk: every module start.tsx imports statically (its graph, recorded as the
 * modules are parsed) goes to `portal`; lazy chunks keep only what they alone use. Left to itself the bundler
 * cuts the first load into a dozen chunks along the lines the lazy chunks share, and each is compressed
 * apart (≈ 2 KB more on the wire, scripts/bundle-size.ts).
 */
const staticImports = new Map<string, readonly string[]>();
function recordStaticImports(): Plugin {
  return {
    name: 'record-static-imports',
    moduleParsed(info) {
      staticImports.set(info.id, info.importedIds);
    },
  };
}
let firstLoad: Set<string> | undefined;
function inFirstLoad(id: string): boolean {
  if (!firstLoad) {
    firstLoad = new Set();
    const start = [...staticImports.keys()].find((key) => key.endsWith('/src/portal/start.tsx'));
    const stack = start ? [start] : [];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (firstLoad.has(next)) continue;
      firstLoad.add(next);
      stack.push(...(staticImports.get(next) ?? []));
    }
  }
  return firstLoad.has(id);
}

// One config for the portal build, the dev server (proxying /v1 to the API) and the unit/API/component
// tests. Playwright's e2e suite (e2e/) runs separately against the built app.
export default defineConfig({
  plugins: [
    react(),
    tellerCatalogue(),
    recordStaticImports(),
    preloadPortal(),
    // Every text file of the build is written beside itself as .br and .gz at the highest levels: it costs
    // seconds once at build time, and the server sends these files as they are (@fastify/static
    // preCompressed), so no request pays for compression. See docs/compression-and-caching.md.
    compression({
      include: /\.(js|css|html|svg|json|txt|webmanifest)$/,
      threshold: 0,
      skipIfLargerOrEqual: true,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  build: {
    outDir: 'dist/portal',
    emptyOutDir: true,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'portal', test: inFirstLoad }] } } },
  },
  server: { proxy: { '/v1': `http://127.0.0.1:${apiPort}` } },
  test: {
    // A test file waits on spawned servers, databases and sockets much of its time: one file per core runs in
    // parallel (Vitest's own default leaves one core free).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          // One module graph per worker, not per file: every file imports the same server, and importing it anew
          // for each file was a seventh of the project's time. The files share no state but what they make.
          isolate: false,
          include: ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.process.test.ts'],
          globalSetup: ['src/testing/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Process tests (*.process.test.ts) start the compiled server and commands (dist/server) as `npm start`
          // and the npm scripts do, built first when out of date; each file in a process of its own, which is
          // also where a test that measures its own heap (young-garbage) runs.
          name: 'process',
          environment: 'node',
          include: ['src/server/**/*.process.test.ts'],
          globalSetup: ['src/testing/build-setup.ts', 'src/testing/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'portal',
          environment: 'happy-dom',
          include: ['src/portal/**/*.test.{ts,tsx}'],
          // Component tests talk to the real API on a private copy of the seeded database.
          globalSetup: ['src/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
