import { useSyncExternalStore } from 'react';

// The teller's agent correspondent id, kept in the browser (spec §5: sent as x-fapi-financial-id on every
// request). It lives in lib, not in the correspondent feature, because the api client reads it too and
// imports only flow app → features → lib.

const STORAGE_KEY = 'rpl.correspondentId';
const listeners = new Set<() => void>();

export function readCorrespondentId(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage blocked (private mode policies): the teller is asked again
  }
}

export function saveCorrespondentId(id: string | null) {
  if (id === null) localStorage.removeItem(STORAGE_KEY);
  else localStorage.setItem(STORAGE_KEY, id);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab signing in or out changes this one too.
  const onStorage = (event: StorageEvent) => event.key === STORAGE_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useCorrespondentId(): string | null {
  return useSyncExternalStore(subscribe, readCorrespondentId, () => null);
}
