import { constants as zlib } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import fp from 'fastify-plugin';

/** Answers smaller than this go out as they are: a packet or two either way, not worth the CPU. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/**
 * Brotli quality and gzip level for answers compressed per request (the JSON of the lookups): the fastest of
 * each, measured with `npm run bench:compression` (docs/compression-and-caching.md): at higher levels the
 * compression costs about as much as the search itself, for a few hundred bytes fewer per answer.
 */
export const BROTLI_QUALITY = 0;
export const GZIP_LEVEL = 1;
/**
 * Answers up to this size are compressed in one synchronous call on the event loop instead of through a zlib
 * stream on libuv's pool (@fastify/compress's syncThreshold; its default on 2 cores is 8 KB): a search page of
 * 50 rows costs less compressed at once than a stream's setup, its pool hop and its callbacks
 * (docs/compression-and-caching.md).
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
