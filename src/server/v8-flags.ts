import { setFlagsFromString } from 'node:v8';

// Imported first by main.ts, before anything of the server is made.
//
// No allocation-site pretenuring. V8 moves an allocation site to the old generation when most of what it made
// survived a young-generation collection; the search index's build and warm-up (hundreds of requests in flight
// at once, the index's arrays arriving) make the request path's sites look long-lived, and from then on every
// answer's headers, request and reply objects were made in the old generation and left there as garbage until
// a full collection, and the resident memory of a large index kept growing while serving. The flag is read at
// every young collection, so
// setting it here, before the first, holds for the whole process and its worker threads.
setFlagsFromString('--no-allocation-site-pretenuring');

// The old generation may grow to three times what survived the last full collection before the next one (V8's
// own factor goes up to four). Under full load the requests in flight at each young collection are promoted, and
// each serving thread's old space grew to several times its live size before a full collection, close to the
// memory target for everything that serves (docs/benchmarks/README.md); a factor of 3 keeps it well under.
setFlagsFromString('--heap-growing-percent=200');
