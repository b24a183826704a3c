// Development only: a worker thread does not inherit its parent's TypeScript loader (tsx, or vitest's), so a
// worker started from source registers tsx first and then imports the module named in its argv. The compiled
// build (npm run build:server) starts the bundled .js workers directly and never loads this file.
import { argv } from 'node:process';
import { register } from 'tsx/esm/api';

register();
await import(argv[2]);
