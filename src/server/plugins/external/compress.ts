import { constants as zlib } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import fp from 'fastify-plugin';

/** Answers smaller than this go out as they are: a packet or two either way, not worth the CPU. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/**
 * Brotli quality and gzip level for answers compressed per request (the JSON of the lookups). Measured on a
 * 1000-row branch page (docs/compression-and-caching.md): Brotli 4 gives nearly the size of gzip 9 in a
 * fraction of its time, and quality 11 (zlib's default) costs hundreds of milliseconds of CPU per answer.
 */
export const BROTLI_QUALITY = 4;
export const GZIP_LEVEL = 4;

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
      // deflate is left out: browsers disagree on whether it means zlib or raw deflate.
      encodings: ['br', 'gzip'],
      brotliOptions: {
        params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
      },
      zlibOptions: { level: GZIP_LEVEL },
      // The API takes no request bodies; decoding them would only turn a stray Content-Encoding header on a
      // GET into an error.
      globalDecompression: false,
    });
  },
  { name: 'compression' },
);
