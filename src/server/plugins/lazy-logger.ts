import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type LevelWithSilentOrString = FastifyBaseLogger['level'];

// A request's logger (request.log) made when the request first logs, not for every request. Fastify makes one per
// request (pino's child(): its bindings serialised to JSON, a new prototype): a measurable part of a search
// answer's CPU, while most requests log nothing at all (LOG_LEVEL=warn) or one audit line (info). A line written
// through it is the same as through pino's child: the child is made, with the same bindings and options, on the
// first line the level lets through.

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** pino's level values (the parent's `levels.values`); `silent` is above every level. */
type LevelValues = Record<string, number>;

interface PinoLike extends FastifyBaseLogger {
  levels?: { values: LevelValues };
}

class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: PinoLike,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
    private readonly values: LevelValues,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LevelWithSilentOrString {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.logger.level = level;
  }

  private enabled(method: Method): boolean {
    return this.values[method] >= (this.values[this.level] ?? Infinity);
  }

  // Methods on the prototype: a logger per request, so no closures of its own.
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  private write(method: Method, args: unknown[]): void {
    if (this.made === undefined && !this.enabled(method)) return;
    (this.logger[method] as (...a: unknown[]) => void)(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/**
 * Fastify's child logger factory, lazy; for a pino logger (Fastify's own `logger` option). Anything else (a logger
 * without pino's level values) gets its child as Fastify would make it.
 */
export const lazyChildLoggerFactory: Parameters<FastifyInstance['setChildLoggerFactory']>[0] = (
  logger,
  bindings,
  options,
) => {
  const values = (logger as PinoLike).levels?.values;
  if (!values) return logger.child(bindings, options);
  // The level methods take pino's arguments as they are (LogFn's overloads).
  return new LazyChildLogger(logger as PinoLike, bindings, options, values) as unknown as FastifyBaseLogger;
};
