import { setFlagsFromString } from 'node:v8';

// Imported first by main.ts, before anything of the server is made.
//
// No allocation-site pretenuring. V8 moves an allocation site to the old generation when most of what it made
// survived a young-generation collection; the search index's build and warm-up (hundreds of requests in flight
// at once, the index's arrays arriving) make the request path's sites look long-lived, and from then on every
// answer's headers, request and reply objects were made in the old generation and left there as garbage until
// a full collection: at 1M rows the resident memory grew from ~500 MB to over 1 GB while serving (old space
// +100 MB per 75,000 reference lookups; +11 MB without it). The flag is read at every young collection, so
// setting it here, before the first, holds for the whole process and its worker threads (issue #26, docs/
// benchmarks/README.md).
setFlagsFromString('--no-allocation-site-pretenuring');

// The old generation may grow to three times what survived the last full collection before the next one (V8's
// own factor goes up to four). Under full load the requests in flight at each young collection are promoted, and
// each serving thread's old space grew from ~36 MB live to 100–150 MB of garbage before a full collection: at
// 1M rows the process peaked at 743–779 MiB while serving, against issue #26's 800 MB for everything that
// serves. With 200 (a factor of 3) it peaked at 667 MB in the same replay (docs/benchmarks/README.md, 2026-11-27).
setFlagsFromString('--heap-growing-percent=200');
