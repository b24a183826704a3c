import { brotliCompressSync, gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { Negotiator } from '@fastify/accept-negotiator';
import { BROTLI_OPTIONS, COMPRESS_THRESHOLD_BYTES, GZIP_OPTIONS } from '../plugins/external/compress';

// Every answer of a /v1 lookup operation is compressed in its route rather than in @fastify/compress's onSend
// hook (each hook costs every request, compressed or not), with the plugin's settings and negotiation
// (compress.ts). A search answer to a busy thread is the gzip the index writes from its rows' records
// (gzip-documents.ts: no compression per request), so a browser's Accept-Encoding costs at most a fifth of the
// throughput; on a quiet thread it is compressed per request, for an answer about a third of that size
// (docs/compression-and-caching.md).

export type Encoding = 'br' | 'gzip';

/** Headers seen at most this many distinct times are negotiated once (a client sends the same one each time). */
const NEGOTIATED_KEPT = 256;

class BoundedMap<K, V> extends Map<K, V> {
  override set(key: K, value: V): this {
    if (this.size >= NEGOTIATED_KEPT) this.clear();
    return super.set(key, value);
  }
}

/**
 * Whether this thread's event loop has been busy: more than `threshold` of the last `everyMs` spent running
 * (Node's event-loop utilisation, a thread's own). Under that, a teller's answer gets the smaller Brotli; over it,
 * the CPU an answer costs is what limits how many tellers are answered.
 */
export class LoadGauge {
  private last = performance.eventLoopUtilization();
  private readonly timer: NodeJS.Timeout;
  busy = false;

  constructor(everyMs = 500, threshold = 0.5) {
    this.timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.busy = performance.eventLoopUtilization(now, this.last).utilization > threshold;
      this.last = now;
    }, everyMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export class AnswerCompression {
  /** `busy`: whether the thread answering is busy (a LoadGauge's). */
  constructor(private readonly busy: () => boolean = () => false) {}

  private readonly negotiator = new Negotiator({
    supportedValues: ['br', 'gzip'],
    cache: new BoundedMap<string, string>(),
  });
  /** The same, gzip first where the q-values leave the choice to the server. */
  private readonly gzipFirst = new Negotiator({
    supportedValues: ['gzip', 'br'],
    cache: new BoundedMap<string, string>(),
  });

  /**
   * The encoding for an answer of `length` bytes to a request with this Accept-Encoding, as @fastify/compress
   * negotiates it (Brotli first, `*` and `x-gzip` read as gzip, q-values honoured); undefined: send it as it is.
   */
  encodingFor(acceptEncoding: string | undefined, length: number): Encoding | undefined {
    if (acceptEncoding === undefined || length < COMPRESS_THRESHOLD_BYTES) return undefined;
    const encoding = this.negotiator.negotiate(acceptEncoding.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'));
    return encoding === 'br' || encoding === 'gzip' ? encoding : undefined;
  }

  /**
   * Whether a search answer is to be the gzip the index writes from its rows' gzip records (gzip-documents.ts: no
   * compression per request, answers about 3× the size of Brotli's): while this thread is busy, and the request
   * takes gzip at least as gladly as Brotli (q-values honoured).
   */
  searchAnswerAsGzip(acceptEncoding: string | undefined): boolean {
    if (acceptEncoding === undefined || !this.busy()) return false;
    return this.gzipFirst.negotiate(acceptEncoding.toLowerCase().replace(/\*|x-gzip/gu, 'gzip')) === 'gzip';
  }

  /** `body` compressed, at @fastify/compress's settings. */
  compress(body: Buffer, encoding: Encoding): Buffer {
    return encoding === 'gzip' ? gzipSync(body, GZIP_OPTIONS) : brotliCompressSync(body, BROTLI_OPTIONS);
  }
}
