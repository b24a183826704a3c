import { constants as zlib } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import fp from 'fastify-plugin';

/** Answers smaller than this go out as they are: a packet or two either way, not worth the CPU. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/**
 * Brotli quality and gzip level for answers compressed per request (the JSON of the lookups): the fastest of
 * each. Measured with `npm run bench:compression -- --rounds 10` on the bench's distinct branch searches (real
 * data, 515 answers of 8.9 KB on average): Brotli 0 takes 24 µs an answer for 21.0 % of its size, Brotli 1
 * 32 µs for 20.3 %, Brotli 4 95 µs for 17.6 %; gzip 1 49 µs for 19.1 %, gzip 4 67 µs for 17.9 %. At Brotli 4
 * the compression cost about as much as the search itself, and the compressed lookups answered 0.69 of the
 * uncompressed throughput at 1M rows; at Brotli 0, 0.85–0.87 (docs/compression-and-caching.md). A few hundred
 * bytes more per answer cost a teller less than that CPU costs everyone. Quality 11 (zlib's default) would cost
 * hundreds of milliseconds per large answer.
 */
export const BROTLI_QUALITY = 0;
export const GZIP_LEVEL = 1;
/**
 * Answers up to this size are compressed in one synchronous call on the event loop instead of through a zlib
 * stream on libuv's pool (@fastify/compress's syncThreshold; its default on 2 cores is 8 KB): a search page of
 * 50 rows (about 22 KB) costs less compressed at once than a stream's setup, its pool hop and its callbacks.
 * Measured with `npm run bench -- --real --only "typical, distinct"` (docs/compression-and-caching.md): the
 * compressed ÷ uncompressed throughput went from 0.49–0.78 (mean 0.66, 4 runs) to 0.78–1.03 (mean 0.87, 3 runs).
 */
export const SYNC_COMPRESS_MAX_BYTES = 64 * 1024;

/** The zlib options of the plugin and of the search answers compressed in their route (answer-compression.ts). */
export const BROTLI_OPTIONS = {
  params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
};
export const GZIP_OPTIONS = { level: GZIP_LEVEL };

/**
 * Brotli or gzip for every answer above the threshold, by the client's Accept-Encoding (Brotli first when
 * both are accepted). Registered before the routes: @fastify/compress attaches itself to each route as it
 * is declared. The portal's files arrive precompressed from the build (@fastify/static preCompressed,
 * content-encoding already set), so this plugin leaves them alone. Buffer payloads (the search answers'
 * ready-made JSON bytes) are compressed like strings.
 */
export default fp(
  async function compression(app: FastifyInstance) {
    await app.register(compress, {
      threshold: COMPRESS_THRESHOLD_BYTES,
      syncThreshold: SYNC_COMPRESS_MAX_BYTES,
      // deflate is left out: browsers disagree on whether it means zlib or raw deflate.
      encodings: ['br', 'gzip'],
      brotliOptions: BROTLI_OPTIONS,
      zlibOptions: GZIP_OPTIONS,
      // The API takes no request bodies; decoding them would only turn a stray Content-Encoding header on a
      // GET into an error.
      globalDecompression: false,
    });
  },
  { name: 'compression' },
);
