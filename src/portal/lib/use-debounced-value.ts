import { useEffect, useState } from 'react';

/** About 300 ms: long enough to skip the keystrokes of one word, short enough to feel immediate. */
export const TYPING_DEBOUNCE_MS = 300;

export function useDebouncedValue<T>(value: T, delay = TYPING_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
