import { createServer } from 'node:http';

// The machine's ceiling: a bare node:http server answering a fixed JSON body, no routing, validation or
// store. GET /<bytes> answers a body of that many bytes (sizes prepared at start, from BENCH_BODY_SIZES).

const sizes = (process.env.BENCH_BODY_SIZES ?? '1024').split(',').map(Number);
const bodies = new Map(sizes.map((size) => [`/${size}`, Buffer.from(JSON.stringify({ data: 'x'.repeat(Math.max(0, size - 11)) }))]));

const server = createServer((request, response) => {
  const body = bodies.get(request.url ?? '') ?? bodies.values().next().value!;
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.once('disconnect', () => server.close(() => process.exit(0)));
