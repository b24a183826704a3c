import { createHash } from 'node:crypto';
import type { LookupStore, ReferenceData } from './store/store';

/** A reference answer: its JSON, and its compressed forms by encoding (made once, on first request). */
export interface ReferenceBody {
  json: Buffer;
  encoded: Partial<Record<'br' | 'gzip', Buffer>>;
}

// The small reference lists every request is validated against (countries, modes, states), held in memory
// and read once per data set rather than queried per request.
export class ReferenceCache {
  private data: ReferenceData = { countries: [], deliveryModes: [], states: [] };
  private countries = new Map<string, ReferenceData['countries'][number]>();
  private modes = new Map<number, ReferenceData['deliveryModes'][number]>();
  private statesByCountry = new Map<string, ReferenceData['states']>();

  private version = '';
  private checkedAt = 0;
  private bodies = new Map<string, ReferenceBody>();
  /** Entity tag of every reference answer: it changes exactly when the data set does. */
  etag = '';

  constructor(
    private readonly store: LookupStore,
    /** How stale the cache may be before the store's data version is checked again. */
    private readonly checkEveryMs = 1000,
  ) {}

  /** Whether ensureFresh(now) would look at the store's data version (else it has nothing to do). */
  checkDue(now = Date.now()): boolean {
    return now - this.checkedAt >= this.checkEveryMs;
  }

  /** Reloads when the store's data set changed (an import, another instance) since the last look. */
  async ensureFresh(now = Date.now()): Promise<void> {
    if (!this.checkDue(now)) return;
    this.checkedAt = now;
    if ((await this.store.dataVersion()) !== this.version) await this.refresh();
  }

  async refresh(): Promise<void> {
    const version = await this.store.dataVersion();
    const data = await this.store.referenceData();
    this.version = version;
    this.checkedAt = Date.now();
    const statesByCountry = new Map<string, ReferenceData['states']>();
    for (const s of data.states) statesByCountry.set(s.country, [...(statesByCountry.get(s.country) ?? []), s]);
    this.data = data;
    this.bodies = new Map();
    this.etag = `"${createHash('sha256').update(version).digest('base64url').slice(0, 22)}"`;
    this.countries = new Map(data.countries.map((c) => [c.code, c]));
    this.modes = new Map(data.deliveryModes.map((m) => [m.value, m]));
    this.statesByCountry = statesByCountry;
  }

  /**
   * A reference answer's JSON, serialised once per data set rather than on every request; its compressed forms are
   * kept beside it as they are first asked for (routes/v1/operation.ts).
   */
  async body(key: string, build: () => unknown): Promise<ReferenceBody> {
    // The map of the data set this answer was built for: a refresh during the await replaces this.bodies,
    // and the answer (of the previous data set) must not land in the new map.
    const bodies = this.bodies;
    let body = bodies.get(key);
    if (body === undefined) {
      body = { json: Buffer.from(JSON.stringify(await build())), encoded: {} };
      bodies.set(key, body);
    }
    return body;
  }

  get reference(): ReferenceData {
    return this.data;
  }
  country(code: string) {
    return this.countries.get(code);
  }
  deliveryMode(value: number) {
    return this.modes.get(value);
  }
  states(country: string) {
    return this.statesByCountry.get(country) ?? [];
  }
  hasState(country: string, code: string) {
    return this.states(country).some((s) => s.code === code);
  }
}
