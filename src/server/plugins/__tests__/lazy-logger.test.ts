import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyChildLoggerFactory } from '../lazy-logger';

// request.log made on its first line: the lines are those of pino's own child, and a request that logs nothing (or
// only below the level) makes no child at all.

function appWith(level: string, lazy: boolean) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    genReqId: () => 'req-1',
    logController: new LogController({ disableRequestLogging: true }),
  });
  if (lazy) app.setChildLoggerFactory(lazyChildLoggerFactory);
  let children = 0;
  const parentChild = app.log.child.bind(app.log);
  app.log.child = (...args: Parameters<typeof app.log.child>) => {
    children++;
    return parentChild(...args);
  };
  app.get('/quiet', async (request) => {
    request.log.debug({ detail: 1 }, 'below the level');
    return { level: request.log.level };
  });
  app.get('/loud', { logLevel: 'error' }, async (request) => {
    request.log.warn('below this route’s level');
    request.log.error({ code: 'E1' }, 'written');
    request.log.child({ step: 'two' }).error('from a grandchild');
    return { level: request.log.level };
  });
  app.get('/info', async (request) => {
    request.log.info({ audit: { status: 200 } }, 'request');
    return {};
  });
  return { app, lines, children: () => children };
}

const apps: ReturnType<typeof appWith>['app'][] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const withoutTime = (lines: Record<string, unknown>[]) => lines.map(({ time: _time, pid: _pid, ...rest }) => rest);

describe('lazyChildLoggerFactory', () => {
  it('makes no child for a request that logs nothing at or above the level', async () => {
    const { app, lines, children } = appWith('info', true);
    apps.push(app);
    await app.ready();
    const before = children();
    const answer = await app.inject('/quiet');
    expect(answer.json()).toEqual({ level: 'info' });
    expect(children() - before).toBe(0);
    expect(lines.filter((l) => l.reqId === 'req-1')).toEqual([]);
  });

  // One child for the request's first line; /loud also asks its child for a child of its own.
  it.each([
    ['/loud', 2],
    ['/info', 1],
  ])('writes %s’s lines exactly as pino’s own child does', async (path, made) => {
    const lazy = appWith('info', true);
    const eager = appWith('info', false);
    apps.push(lazy.app, eager.app);
    await Promise.all([lazy.app.ready(), eager.app.ready()]);
    const before = lazy.children();
    const [a, b] = [await lazy.app.inject(path), await eager.app.inject(path)];
    expect(a.body).toBe(b.body);
    expect(withoutTime(lazy.lines)).toEqual(withoutTime(eager.lines));
    expect(lazy.lines.some((l) => l.reqId === 'req-1')).toBe(true);
    expect(lazy.children() - before).toBe(made);
  });

  it("reports the route's level before any line is written", async () => {
    const { app } = appWith('info', true);
    apps.push(app);
    expect((await app.inject('/loud')).json()).toEqual({ level: 'error' });
  });
});
