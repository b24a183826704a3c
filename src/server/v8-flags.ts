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
