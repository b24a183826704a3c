import { useSyncExternalStore } from 'react';

// Recent searches: the last screens-with-filters the teller looked at, kept on this device only
// (localStorage, never sent anywhere), newest first, clearable. A search is its URL: opening one restores it.

export const RECENT_STORAGE_KEY = 'rpl.recentSearches';
const MAX_RECENT = 8;
/** Parameters that do not make a search different (the page of it). */
const NOT_SEARCH = new Set(['pageNumber', 'pageSize']);

export interface RecentSearch {
  /** Path and query, as in the address bar. */
  href: string;
  at: string;
}

const listeners = new Set<() => void>();
let cache: { raw: string | null; list: RecentSearch[] } = { raw: null, list: [] };

function read(): RecentSearch[] {
  let raw: string | null;
  try {
    raw = localStorage.getItem(RECENT_STORAGE_KEY);
  } catch {
    return cache.list; // storage blocked: the list lives as long as the page
  }
  if (raw === cache.raw) return cache.list;
  let list: RecentSearch[] = [];
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed))
      list = parsed.filter((e): e is RecentSearch => typeof e?.href === 'string' && typeof e?.at === 'string');
  } catch {
    list = [];
  }
  cache = { raw, list };
  return list;
}

function write(list: RecentSearch[]) {
  const raw = JSON.stringify(list);
  cache = { raw, list };
  try {
    localStorage.setItem(RECENT_STORAGE_KEY, raw);
  } catch {
    // storage blocked or full: kept in memory for this page
  }
  for (const listener of listeners) listener();
}

/** The search's identity: its path and parameters without the page, in a stable order. */
function identity(href: string): string {
  const url = new URL(href, 'http://portal');
  const params = [...url.searchParams].filter(([name]) => !NOT_SEARCH.has(name)).sort();
  return `${url.pathname}?${new URLSearchParams(params).toString()}`;
}

/** Whether a URL holds a search (a filter beyond the country and mode chosen in the app bar). */
export function isSearch(search: string): boolean {
  return [...new URLSearchParams(search).keys()].some(
    (name) => !NOT_SEARCH.has(name) && name !== 'receivingCountry' && name !== 'deliveryMode',
  );
}

export function rememberSearch(href: string) {
  const id = identity(href);
  const rest = read().filter((entry) => identity(entry.href) !== id);
  write([{ href, at: new Date().toISOString() }, ...rest].slice(0, MAX_RECENT));
}

/** Clears so far: a search that settles after a clear it began before is not remembered (the teller cleared it). */
let clears = 0;
export const clearCount = () => clears;

export function clearRecentSearches() {
  clears++;
  try {
    localStorage.removeItem(RECENT_STORAGE_KEY);
  } catch {
    // nothing kept
  }
  cache = { raw: null, list: [] };
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  // Another tab of the same portal adds or clears searches too.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
};

export function useRecentSearches(): RecentSearch[] {
  return useSyncExternalStore(subscribe, read, () => cache.list);
}
