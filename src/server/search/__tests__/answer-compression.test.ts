import { randomBytes } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BROTLI_QUALITY, COMPRESS_THRESHOLD_BYTES } from '../../plugins/external/compress';
import { setTimeout as delay } from 'node:timers/promises';
import { AnswerCompression, LoadGauge } from '../answer-compression';
import { BodyPool } from '../body-pool';

const page = (seed: number, rows: number) =>
  Buffer.from(
    JSON.stringify({
      data: Array.from({ length: rows }, (_, i) => ({
        branchId: seed * 1000 + i,
        bankName: `BANK ${seed % 7}`,
        branchName: `BRANCH ${(seed * 31 + i * 17) % 997}`,
        address: `${i} MAIN ROAD, WARD ${seed}`,
      })),
      pageNumber: 1,
      pageSize: rows,
      totalCount: rows * 3,
    }),
  );

describe('AnswerCompression', () => {
  const compression = new AnswerCompression();

  it("reuses one Brotli encoder on this Node, and its answers are brotliCompressSync's, byte for byte", () => {
    expect(compression.reusesEncoder).toBe(true);
    const pool = new BodyPool();
    const options = {
      params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    };
    const answers: { body: Buffer; bytes: Buffer }[] = [];
    // Sizes from one row to a 1000-row page, one after the other through the same encoder.
    for (const [seed, rows] of [
      [1, 3],
      [2, 50],
      [3, 1000],
      [4, 50],
      [5, 7],
      [6, 200],
    ]) {
      const body = page(seed, rows);
      const { bytes, buffer } = compression.compress(body, 'br', pool.take);
      expect(buffer).toBeDefined();
      expect(bytes.equals(brotliCompressSync(body, options))).toBe(true);
      answers.push({ body, bytes });
    }
    // Each answer has its own buffer: a later answer did not write over an earlier one still being sent.
    for (const { body, bytes } of answers) expect(brotliDecompressSync(bytes).equals(body)).toBe(true);
  });

  it('an answer that does not compress still comes out whole', () => {
    const pool = new BodyPool();
    for (const length of [2000, 70_000]) {
      const body = randomBytes(length);
      const { bytes } = compression.compress(body, 'br', pool.take);
      expect(brotliDecompressSync(bytes).equals(body)).toBe(true);
    }
  });

  it('gzip when that is what was negotiated', () => {
    const body = page(9, 50);
    const { bytes, buffer } = compression.compress(body, 'gzip', new BodyPool().take);
    expect(buffer).toBeUndefined();
    expect(gunzipSync(bytes).equals(body)).toBe(true);
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.9', 'br'],
    ['br;q=0.1, gzip;q=0.9', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['', undefined],
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(compression.encodingFor(header, COMPRESS_THRESHOLD_BYTES)).toBe(expected);
  });

  it('no header, or an answer under the threshold: sent as it is', () => {
    expect(compression.encodingFor(undefined, 50_000)).toBeUndefined();
    expect(compression.encodingFor('br', COMPRESS_THRESHOLD_BYTES - 1)).toBeUndefined();
  });

  it('many distinct headers (a hostile client) do not grow the negotiation memo without bound', () => {
    for (let i = 0; i < 5000; i++) expect(compression.encodingFor(`br;q=0.${(i % 9) + 1}, x-${i}`, 5000)).toBe('br');
    const cache = (compression as unknown as { negotiator: { cache: Map<string, string> } }).negotiator.cache;
    expect(cache.size).toBeLessThanOrEqual(256);
  });
});

describe("search answers as the index's gzip (SEARCH_GZIP)", () => {
  const browser = 'gzip, deflate, br, zstd';
  it.each([
    ['auto', false, browser, false],
    ['auto', true, browser, true],
    ['auto', true, 'br', false],
    ['auto', true, 'gzip;q=0.5, br', false],
    ['auto', true, 'GZIP', true],
    ['auto', true, '*', true],
    ['always', false, browser, true],
    ['always', false, 'identity', false],
    ['never', true, browser, false],
  ] as const)('%s, busy %s, Accept-Encoding "%s": %s', (mode, busy, accept, expected) => {
    expect(new AnswerCompression(mode, () => busy).searchAnswerAsGzip(accept)).toBe(expected);
  });

  it('LoadGauge: busy after the event loop ran most of a period, not after an idle one', async () => {
    const gauge = new LoadGauge(50, 0.5);
    try {
      expect(gauge.busy).toBe(false);
      // The loop held for 150 ms: the period the timer then measures was nearly all running.
      const until = Date.now() + 150;
      while (Date.now() < until);
      // Its timer, overdue, runs first; the next one 50 ms later measures an idle period.
      await delay(10);
      expect(gauge.busy).toBe(true);
      await delay(200);
      expect(gauge.busy).toBe(false);
    } finally {
      gauge.stop();
    }
  });
});
