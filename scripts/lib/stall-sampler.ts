import { readFileSync } from 'node:fs';

// Where a window's slow answers come from, seen from the server's side: every `everyMs` the sampler reads how
// long the server's main thread waited for a CPU (the kernel's run-queue delay, /proc/<pid>/task/<pid>/schedstat)
// and how long it ran, what the process read from storage (/proc/<pid>/io), and, from /metrics, the event
// loop's longest delay since the last look (prom-client resets it at every scrape; 10 ms resolution). A window
// whose p99 is high while the loop never stalled was slowed from outside the process (the CPU shared with other
// processes); a stall of the loop with little run-queue wait is the server's own work.

interface Sample {
  at: number;
  /** Cumulative ns the main thread ran, and waited on a run queue. */
  ranNs: number;
  waitedNs: number;
  /** The event loop's longest delay since the previous scrape (ms). */
  loopMaxMs: number;
  /** Cumulative bytes the server process (all its threads) had read from storage, not from the page cache. */
  readBytes: number;
}

export interface StallWindow {
  /** The longest event-loop delay seen in the window (ms; the histogram's resolution is 10 ms). */
  loopMaxMs: number;
  /** Of the window's time, the share the server's main thread ran, and waited for a CPU. */
  ranShare: number;
  waitedShare: number;
  /** MB the server read from storage in the window (/proc/<pid>/io read_bytes): answers that missed the page cache. */
  storageReadMB: number;
}

/** How long a process's main thread has run and waited on a run queue (ns, since it started). */
export function schedstat(pid: number): { ranNs: number; waitedNs: number } {
  try {
    const [ran, waited] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return { ranNs: ran, waitedNs: waited };
  } catch {
    return { ranNs: NaN, waitedNs: NaN };
  }
}

/** CPU time (user and kernel) of every thread of process `pid` so far, in ns (/proc/<pid>/stat, 10 ms ticks). */
export function processCpuNs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat(5); here, after the command, at 11 and 12 (0-based).
    return (Number(fields[11]) + Number(fields[12])) * 1e7;
  } catch {
    return NaN;
  }
}

function storageReadBytes(pid: number): number {
  try {
    return Number(/^read_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

const metric = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);

export class StallSampler {
  private readonly samples: Sample[] = [];
  private timer?: NodeJS.Timeout;
  private busy = false;

  constructor(
    private readonly pid: number,
    private readonly baseUrl: string,
    private readonly everyMs = 250,
  ) {}

  /** Starts sampling; the first scrape's event-loop figures (everything since the server started) are dropped. */
  async start(): Promise<void> {
    await this.sample();
    this.samples[0].loopMaxMs = NaN;
    this.timer = setInterval(() => void this.sample(), this.everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const text = await fetch(`${this.baseUrl}/metrics`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.text(),
        () => '',
      );
      this.samples.push({
        at: Date.now(),
        ...schedstat(this.pid),
        readBytes: storageReadBytes(this.pid),
        loopMaxMs: metric(text, /^nodejs_eventloop_lag_max_seconds ([\d.e+-]+)$/m) * 1000,
      });
    } finally {
      this.busy = false;
    }
  }

  /** What the samples taken between `from` and `to` (Date.now() values) say about that window. */
  window(from: number, to: number): StallWindow {
    const inside = this.samples.filter((s) => s.at > from && s.at <= to);
    const before = this.samples.filter((s) => s.at <= from).at(-1) ?? inside[0];
    const last = inside.at(-1);
    if (!before || !last || last === before)
      return { loopMaxMs: NaN, ranShare: NaN, waitedShare: NaN, storageReadMB: NaN };
    const spanNs = (last.at - before.at) * 1e6;
    return {
      loopMaxMs: Math.max(...inside.map((s) => s.loopMaxMs).filter((ms) => !Number.isNaN(ms))),
      ranShare: (last.ranNs - before.ranNs) / spanNs,
      waitedShare: (last.waitedNs - before.waitedNs) / spanNs,
      storageReadMB: (last.readBytes - before.readBytes) / 1024 / 1024,
    };
  }
}
