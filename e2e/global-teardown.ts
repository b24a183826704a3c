import { rmSync } from 'node:fs';

/** Removes the e2e servers' data folders (made in playwright.config.ts). */
export default function globalTeardown() {
  for (const dir of [process.env.E2E_DATA_DIR, process.env.E2E_DESK_DATA_DIR])
    if (dir) rmSync(dir, { recursive: true, force: true });
}
