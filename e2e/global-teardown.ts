import { rmSync } from 'node:fs';

/** Removes the e2e server's data folder (made in playwright.config.ts). */
export default function globalTeardown() {
  if (process.env.E2E_DATA_DIR) rmSync(process.env.E2E_DATA_DIR, { recursive: true, force: true });
}
