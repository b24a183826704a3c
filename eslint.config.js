import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

// Lint: typescript-eslint's recommended rules, React's hook rules for the portal, and the import boundaries of
// bulletproof-react (docs/architecture.md): the server never imports the portal nor the portal the server (both
// import the contract, which imports neither); a portal feature never imports another feature; shared portal
// code (components, lib) never imports features or the app. Formatting is Prettier's (npm run format:check).

const features = readdirSync('src/portal/features');

const zones = [
  { target: './src/server', from: './src/portal', message: 'The server never imports the portal.' },
  {
    target: './src/portal',
    from: './src/server',
    message: 'The portal never imports the server: share it through src/contract.',
  },
  {
    target: './src/contract',
    from: ['./src/server', './src/portal'],
    message: 'The contract imports neither side.',
  },
  ...features.map((feature) => ({
    target: `./src/portal/features/${feature}`,
    from: './src/portal/features',
    except: [`./${feature}`],
    message: 'A feature never imports another feature: compose them in src/portal/app.',
  })),
  {
    target: ['./src/portal/components', './src/portal/lib'],
    from: ['./src/portal/features', './src/portal/app'],
    message: 'Shared portal code never imports features or the app.',
  },
];
// Tests may read data/seed to compute expected answers; the code they test may not.
const seedZone = {
  target: [
    './src/server/store',
    './src/server/search',
    './src/server/routes',
    './src/server/domain',
    './src/server/importer',
  ],
  from: './src/server/seed',
  message: 'Only seeding and tooling read data/seed: the store, the index, the routes and the importer take a DataSet.',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', '.bench/', '.scratch/', 'var/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    // Imports are written without extensions (moduleResolution "bundler"): the resolver tries these.
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
      // The files no-cycle follows (read with typescript-eslint's parser).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      // Unused names are the compiler's job (noUnusedLocals); `_name` marks one kept on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Prettier wraps code at 120; this catches the comments it leaves alone. Long messages and SQL stay whole
      // (ignoreStrings/TemplateLiterals): cut into pieces they could no longer be found by searching their words.
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true },
      ],
      'import-x/no-restricted-paths': ['error', { zones }],
      // No import circles: a module is read after what it imports.
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['src/portal/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // A React Compiler notice (react-hook-form's watch cannot be memoised); the portal does not use the compiler.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['**/__tests__/**'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...zones, seedZone] }],
      // On Node 20 an AsyncLocalStorage turns on async hooks for the whole process once it runs: every promise
      // and socket of every request then pays for them (about 10 % of the server's time, issue #26).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'node:async_hooks',
              importNames: ['AsyncLocalStorage', 'createHook'],
              message: 'costs every request (eslint.config.js)',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read loosely typed JSON documents (OpenAPI, log lines).
    files: ['**/__tests__/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
