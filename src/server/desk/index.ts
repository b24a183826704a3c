import type { Config } from '../config';
import type { LookupStore } from '../store/store';
import { DeskEngine } from './engine';

// The operations desk's engine as the app and the ops routes open it (desk.ts: the interface and its errors).

export * from './desk';
export { DeskEngine, recordOpsEvent } from './engine';

/** The desk on the app's store, with the configured expiry and retention. */
export function openDesk(
  store: LookupStore,
  config: Pick<Config, 'DESK_CHANGE_TTL_HOURS' | 'DESK_VERSIONS_KEPT'>,
  log?: (message: string) => void,
): DeskEngine {
  return new DeskEngine(store, {
    changeTtlHours: config.DESK_CHANGE_TTL_HOURS,
    versionsKept: config.DESK_VERSIONS_KEPT,
    log,
  });
}
