import type { LookupStore, ReferenceData } from './store/store';

// The small reference lists every request is validated against (countries, modes, states), held in memory
// and read once per data set rather than queried per request.
export class ReferenceCache {
  private data: ReferenceData = { countries: [], deliveryModes: [], states: [] };
  private countries = new Map<string, ReferenceData['countries'][number]>();
  private modes = new Map<number, ReferenceData['deliveryModes'][number]>();
  private statesByCountry = new Map<string, ReferenceData['states']>();

  constructor(private readonly store: LookupStore) {}

  async refresh(): Promise<void> {
    const data = await this.store.referenceData();
    const statesByCountry = new Map<string, ReferenceData['states']>();
    for (const s of data.states) statesByCountry.set(s.country, [...(statesByCountry.get(s.country) ?? []), s]);
    this.data = data;
    this.countries = new Map(data.countries.map((c) => [c.code, c]));
    this.modes = new Map(data.deliveryModes.map((m) => [m.value, m]));
    this.statesByCountry = statesByCountry;
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
