import { randomBytes } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BROTLI_QUALITY, COMPRESS_THRESHOLD_BYTES } from '../../plugins/external/compress';
import { setTimeout as delay } from 'node:timers/promises';
import { AnswerCompression, LoadGauge } from '../answer-compression';

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

  it("compresses at @fastify/compress's settings: Brotli 0 in text mode, or gzip when that was negotiated", () => {
    const options = {
      params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    };
    for (const [seed, rows] of [
      [1, 3],
      [2, 50],
      [3, 1000],
    ]) {
      const body = page(seed, rows);
      expect(compression.compress(body, 'br').equals(brotliCompressSync(body, options))).toBe(true);
      expect(gunzipSync(compression.compress(body, 'gzip')).equals(body)).toBe(true);
    }
    const noise = randomBytes(70_000);
    expect(brotliDecompressSync(compression.compress(noise, 'br')).equals(noise)).toBe(true);
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

describe("search answers as the index's gzip: to a busy thread, when the client takes gzip", () => {
  const browser = 'gzip, deflate, br, zstd';
  it.each([
    [false, browser, false],
    [true, browser, true],
    [true, 'br', false],
    [true, 'gzip;q=0.5, br', false],
    [true, 'GZIP', true],
    [true, '*', true],
    [true, 'identity', false],
    [true, undefined, false],
  ] as const)('busy %s, Accept-Encoding "%s": %s', (busy, accept, expected) => {
    expect(new AnswerCompression(() => busy).searchAnswerAsGzip(accept)).toBe(expected);
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
