import { defineConfig } from 'vitest/config';
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

// One config for the portal build, the dev server (proxying /v1 to the API) and the unit/API/component
// tests. Playwright's e2e suite (e2e/) runs separately against the built app.
export default defineConfig({
  plugins: [
    react(),
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
  build: { outDir: 'dist/portal', emptyOutDir: true },
  server: { proxy: { '/v1': `http://127.0.0.1:${apiPort}` } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts'],
          globalSetup: ['src/testing/global-setup.ts'],
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
