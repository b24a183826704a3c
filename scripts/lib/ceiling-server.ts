import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

// The machine's ceiling: a bare node:http server, no routing, validation or store, answering a fixed body.
// GET /<name> answers the file <name> of BENCH_BODY_DIR: the bench puts there one real answer of each shape, so
// the ceiling's client reads the same bytes as the shape's (a load generator's cost depends on the text it
// decodes, not only on its length).

// A body is read once, on its first request (the bench writes them while the ceiling already runs).
const dir = process.env.BENCH_BODY_DIR!;
const bodies = new Map<string, Buffer>();
const EMPTY = Buffer.from('{}');

function bodyOf(url: string): Buffer {
  let body = bodies.get(url);
  if (!body) {
    const file = join(dir, url.replace(/[^\w-]/g, ''));
    body = url.length > 1 && existsSync(file) ? readFileSync(file) : EMPTY;
    bodies.set(url, body);
  }
  return body;
}

const server = createServer((request, response) => {
  const body = bodyOf(request.url ?? '/');
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.once('disconnect', () => server.close(() => process.exit(0)));
