import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'wouter';

// All state of the portal lives in the URL, under the API's own parameter names, so a link can be shared,
// reload restores the screen, Back works, and a hand-edited parameter reaches the API as written (a bad one
// comes back as the API's 400 with its correlation id).

const SELECTION = ['receivingCountry', 'deliveryMode'] as const;

/** The receiving country and delivery mode chosen in the app bar; they drive every screen. */
export function useReceivingSelection() {
  const [params, setParams] = useSearchParams();
  const receivingCountry = params.get('receivingCountry') ?? '';
  const deliveryMode = params.get('deliveryMode') ?? '';
  const select = useCallback(
    (country: string, mode: string) => {
      // A new country or mode starts the screen's filters afresh: a state or head office of the previous
      // country means nothing in the next.
      const next = new URLSearchParams();
      if (country) next.set('receivingCountry', country);
      if (mode) next.set('deliveryMode', mode);
      setParams(next);
    },
    [setParams],
  );
  return { receivingCountry, deliveryMode, select };
}

/** Keeps only the app-bar selection of the current URL: used by links between screens. */
export function selectionSearch(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of SELECTION) {
    const value = params.get(name);
    if (value) kept.set(name, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : '';
}

/**
 * A screen's own URL parameters. `update` writes a patch (empty values remove the parameter) as a new
 * history entry (or replaces the current one); filter changes go back to page 1 unless the patch sets the page itself.
 * The router (wouter) reads the URL through useSyncExternalStore, so a new URL renders at once, never in a
 * transition that typing keeps postponing (the request would leave ~700 ms after the last key, not ~300 ms).
 */
export function useScreenParams<const N extends string>(names: readonly N[]) {
  const [params, setParams] = useSearchParams();
  // `names` is a new array every render: its joined text is what says the names changed.
  const namesKey = names.join();
  const values = useMemo(
    () => Object.fromEntries(names.map((name) => [name, params.get(name) ?? ''])) as Record<N, string>,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [params, namesKey],
  );
  const update = useCallback(
    (
      patch: Partial<Record<N | 'pageNumber' | 'pageSize', string | number | undefined>>,
      options: { replace?: boolean } = {},
    ) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (!('pageNumber' in patch)) next.delete('pageNumber');
        for (const [name, value] of Object.entries(patch)) {
          if (value === undefined || value === '') next.delete(name);
          else next.set(name, String(value));
        }
        return next;
      }, options);
    },
    [setParams],
  );
  return { values, update };
}

/** URL parameters that are set; absent ones are left out of the request and of the query key. */
export function presentValues<T extends Record<string, string>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')) as Partial<T>;
}

/**
 * URL parameters that are not the selection nor one of the screen's: a hand-edited or mistyped one
 * (`pagesize=10`) is passed on to the API as written, so its 400 names it instead of it being dropped.
 */
export function useOtherParams(known: readonly string[]): Record<string, string> {
  const [params] = useSearchParams();
  // `known` is a new array every render: its joined text is what says the names changed.
  const knownKey = known.join();
  return useMemo(() => {
    const others: Record<string, string> = {};
    for (const [name, value] of params)
      if (!known.includes(name) && !(SELECTION as readonly string[]).includes(name)) others[name] = value;
    return others;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params, knownKey]);
}

/**
 * A view opened over a screen by one URL parameter (a branch's detail: `branch=IN-SBIN0000300`), so it can be
 * linked, reloaded and closed with Back. `href` is the link that opens it (the current URL plus the parameter);
 * `open` and `close` keep every other parameter, the page number included.
 */
export function useDetailParam(name: string) {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? '';
  const href = useCallback(
    (id: string) => {
      const next = new URLSearchParams(params);
      next.set(name, id);
      return `?${next.toString()}`;
    },
    [params, name],
  );
  const open = useCallback(
    (id: string) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(name, id);
        return next;
      }),
    [setParams, name],
  );
  const close = useCallback(
    () =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.delete(name);
        return next;
      }),
    [setParams, name],
  );
  return { value, href, open, close };
}
