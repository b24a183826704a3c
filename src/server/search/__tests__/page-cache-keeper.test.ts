import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PageCacheKeeper, type DocumentTable } from '../documents';

// The answer documents of a snapshot stay in its file (documents.ts); the keeper reads them through now and then
// so the kernel does not page them out. What it must do: read exactly the documents' bytes of every table kept,
// nothing for documents in memory, follow the index now serving, survive a file removed under it, and stop.

const dir = mkdtempSync(join(tmpdir(), 'rpl-keeper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileTable = (name: string, at: number, byteLength: number): DocumentTable => {
  const file = join(dir, name);
  writeFileSync(file, Buffer.alloc(at + byteLength + 100, 1));
  return { bytes: { file, at, byteLength }, offsets: new Uint32Array(1) };
};

async function readsOf(run: () => Promise<void>) {
  const handle = await open(join(dir, 'probe'), 'w');
  const prototype = Object.getPrototypeOf(handle) as { read: (...args: unknown[]) => Promise<unknown> };
  await handle.close();
  const spy = vi.spyOn(prototype, 'read');
  try {
    await run();
    return spy.mock.calls.map(([, , length, position]) => [position, length] as [number, number]);
  } finally {
    spy.mockRestore();
  }
}

describe('PageCacheKeeper', () => {
  it('reads every byte of each kept table once a pass, and no byte outside', async () => {
    const keeper = new PageCacheKeeper(60_000, 1000, 0);
    const tables = [fileTable('a', 800, 4_321), fileTable('b', 0, 999)];
    keeper.keep(tables);
    const reads = await readsOf(() => keeper.readThrough());
    const a = reads.filter(([position]) => position >= 800 && position < 800 + 4321);
    expect(a.map(([, length]) => length)).toEqual([1000, 1000, 1000, 1000, 321]);
    expect(a.map(([position]) => position)).toEqual([800, 1800, 2800, 3800, 4800]);
    expect(reads.length).toBe(a.length + 1); // b: one read of its 999 bytes
    expect(reads.at(-1)).toEqual([0, 999]);
    expect(keeper.passes).toBe(1);
    await keeper.stop();
  });

  it('documents in memory: nothing to keep, no timer', async () => {
    const keeper = new PageCacheKeeper(5, 1000, 0);
    keeper.keep([{ bytes: new Uint8Array(10), offsets: new Uint32Array(1) }]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(keeper.passes).toBe(0);
    await keeper.stop();
  });

  it('passes run on their timer, over the tables of the index serving now; a removed file is skipped', async () => {
    const keeper = new PageCacheKeeper(10, 4096, 0);
    const old = fileTable('old', 0, 10_000);
    keeper.keep([old]);
    await vi.waitFor(() => expect(keeper.passes).toBeGreaterThanOrEqual(2), { timeout: 2000 });
    const next = fileTable('next', 16, 5_000);
    keeper.keep([next]);
    rmSync((old.bytes as { file: string }).file);
    const reads = await readsOf(async () => {
      const before = keeper.passes;
      await vi.waitFor(() => expect(keeper.passes).toBeGreaterThan(before + 1), { timeout: 2000 });
    });
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every(([position, length]) => position >= 16 && position + length <= 16 + 5_000)).toBe(true);
    keeper.keep([fileTable('gone', 0, 100)]);
    rmSync(join(dir, 'gone'));
    await expect(keeper.readThrough()).resolves.toBeUndefined();
    await keeper.stop();
    const after = keeper.passes;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(keeper.passes).toBe(after);
  });
});
