import { brotliCompressSync, BrotliCompress, constants as zlib, gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { Negotiator } from '@fastify/accept-negotiator';
import type { NativeZlib } from './gzip-documents';
import { BROTLI_OPTIONS, BROTLI_QUALITY, COMPRESS_THRESHOLD_BYTES, GZIP_OPTIONS } from '../plugins/external/compress';

// The search answers (pooled JSON bytes, body-pool.ts) compressed in the route rather than in @fastify/compress's
// onSend hook (a browser's Accept-Encoding is to cost at most a fifth of the throughput). The
// settings are the plugin's (compress.ts); the plugin still compresses every other answer, and leaves these alone
// because they arrive with their Content-Encoding set.
//
// What this saves per answer, measured on 40 real 18 kB branch pages (2 cores, one busy): zlib.brotliCompressSync
// builds a Transform stream per call (6.7 µs on its own, 7.2 µs for a 2-byte input), 37–39 µs a page in all; the
// same Brotli encoder, created once and started anew per answer, 31–33 µs, byte for byte the same output. The
// output goes into a pooled buffer, not a fresh 16 kB chunk. Node offers no public one-shot call that keeps its
// encoder, so this drives the native handle of one BrotliCompress stream (`_handle.init` / `writeSync`, as
// zlib's own processChunkSync does); at start-up it checks that the handle compresses a sample exactly as
// brotliCompressSync does, and falls back to brotliCompressSync when it does not (another Node).

export type Encoding = 'br' | 'gzip';

/** Brotli parameters as the native init takes them: an array by parameter id, unset ones 0xFFFFFFFF. */
function brotliParams(): Uint32Array {
  const params = new Uint32Array(zlib.BROTLI_PARAM_LARGE_WINDOW + 1).fill(0xffffffff);
  params[zlib.BROTLI_PARAM_QUALITY] = BROTLI_QUALITY;
  params[zlib.BROTLI_PARAM_MODE] = zlib.BROTLI_MODE_TEXT;
  return params;
}

/** The native side of a BrotliCompress stream (lib/zlib.js): what this file calls on it. */
interface NativeBrotli extends NativeZlib {
  init(params: Uint32Array, writeState: Uint32Array, processCallback: () => void): unknown;
}

/** One Brotli encoder, started anew for each answer (one per thread: a call runs to its end on the event loop). */
class ReusedBrotli {
  private readonly stream: BrotliCompress;
  private readonly handle: NativeBrotli;
  /** [output bytes left, input bytes left] after writeSync. */
  private readonly state: Uint32Array;
  private readonly params = brotliParams();

  constructor() {
    this.stream = new BrotliCompress(BROTLI_OPTIONS);
    const internals = this.stream as unknown as { _handle?: NativeBrotli; _writeState?: Uint32Array };
    if (typeof internals._handle?.writeSync !== 'function' || !(internals._writeState instanceof Uint32Array))
      throw new Error('not the zlib internals this was written for');
    this.handle = internals._handle;
    this.state = internals._writeState;
  }

  /** Compresses `input` into `output`; the compressed length, or -1 when `output` is too small. */
  into(input: Uint8Array, output: Uint8Array): number {
    this.handle.init(this.params, this.state, noop);
    this.handle.writeSync(zlib.BROTLI_OPERATION_FINISH, input, 0, input.length, output, 0, output.length);
    const [outputLeft, inputLeft] = this.state;
    // Output space ran out: the stream is not finished (the handle is started anew on the next call).
    if (outputLeft === 0 || inputLeft !== 0) return -1;
    return output.length - outputLeft;
  }
}

function noop() {}

/** The reused encoder, when it compresses a sample exactly as brotliCompressSync does; otherwise undefined. */
function checkedReusedBrotli(): ReusedBrotli | undefined {
  try {
    const brotli = new ReusedBrotli();
    const sample = Buffer.from(
      JSON.stringify({ data: Array.from({ length: 40 }, (_, i) => ({ id: i, name: `row ${i}` })) }),
    );
    const output = Buffer.allocUnsafe(sample.length + 1024);
    for (let round = 0; round < 2; round++) {
      const length = brotli.into(sample, output);
      if (length < 0 || !output.subarray(0, length).equals(brotliCompressSync(sample, BROTLI_OPTIONS)))
        return undefined;
    }
    return brotli;
  } catch {
    return undefined;
  }
}

/** Headers seen at most this many distinct times are negotiated once (a client sends the same one each time). */
const NEGOTIATED_KEPT = 256;

class BoundedMap<K, V> extends Map<K, V> {
  override set(key: K, value: V): this {
    if (this.size >= NEGOTIATED_KEPT) this.clear();
    return super.set(key, value);
  }
}

/**
 * When search answers go out as the index's gzip (AnswerCompression.searchAnswerAsGzip): `auto`, while the thread
 * answering is busy; `always`; `never` (Brotli 0 or gzip 1 per answer, as for every other answer).
 */
export type SearchGzip = 'auto' | 'always' | 'never';

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
  private readonly brotli = checkedReusedBrotli();

  constructor(
    private readonly searchGzip: SearchGzip = 'auto',
    private readonly busy: () => boolean = () => false,
  ) {}

  private readonly negotiator = new Negotiator({
    supportedValues: ['br', 'gzip'],
    cache: new BoundedMap<string, string>(),
  });
  /** The same, gzip first where the q-values leave the choice to the server. */
  private readonly gzipFirst = new Negotiator({
    supportedValues: ['gzip', 'br'],
    cache: new BoundedMap<string, string>(),
  });

  /** Whether the encoder is reused (false: brotliCompressSync per answer). */
  get reusesEncoder(): boolean {
    return this.brotli !== undefined;
  }

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
   * compression per request, answers about 3× the size of Brotli's): SEARCH_GZIP=always, or `auto` while this
   * thread is busy (LoadGauge); and the request takes gzip at least as gladly as Brotli (q-values honoured).
   */
  searchAnswerAsGzip(acceptEncoding: string | undefined): boolean {
    if (acceptEncoding === undefined || this.searchGzip === 'never') return false;
    if (this.searchGzip === 'auto' && !this.busy()) return false;
    return this.gzipFirst.negotiate(acceptEncoding.toLowerCase().replace(/\*|x-gzip/gu, 'gzip')) === 'gzip';
  }

  /**
   * `body` compressed; with Brotli into a buffer of `take` (the answer pool: the caller gives back `buffer` once the
   * response has closed), otherwise a buffer of its own (`buffer` undefined).
   */
  compress(body: Buffer, encoding: Encoding, take: (length: number) => Buffer): { bytes: Buffer; buffer?: Buffer } {
    if (encoding === 'gzip') return { bytes: gzipSync(body, GZIP_OPTIONS) };
    if (this.brotli) {
      // JSON compresses to a fifth; the margin is for an answer that does not compress at all.
      const buffer = take(body.length + (body.length >> 3) + 1024);
      const length = this.brotli.into(body, buffer);
      if (length >= 0) return { bytes: buffer.subarray(0, length), buffer };
      return { bytes: brotliCompressSync(body, BROTLI_OPTIONS), buffer };
    }
    return { bytes: brotliCompressSync(body, BROTLI_OPTIONS) };
  }
}
