import { join } from 'node:path';

/**
 * The checkout's root. From source this file is src/server/paths.ts; compiled, it is bundled into a file of
 * dist/server (npm run build:server writes every entry flat there): two levels down either way. Files that are
 * read, not compiled — the SQL migrations and data/seed — are found from here in both.
 */
export const REPO_ROOT = join(import.meta.dirname, '..', '..');
