import { useCallback, useEffect, useRef, useState } from 'react';
import { useForm, useWatch, type DefaultValues } from 'react-hook-form';
import type { z } from 'zod';
import { lazyZodResolver } from './lazy-resolver';

/** About 300 ms after the last key: long enough to skip the keystrokes of one word, short enough to feel immediate. */
export const TYPING_DEBOUNCE_MS = 300;

type TextFields = Record<string, string>;

const sameValues = (a: TextFields, b: TextFields) =>
  Object.keys({ ...a, ...b }).every((key) => (a[key] ?? '') === (b[key] ?? ''));

/**
 * A filter form whose results follow the URL, and whose fields belong to the user.
 *
 * - form → URL: ~300 ms after the last key (a timer restarted by each change, not a render-driven debounce),
 *   at once on Enter or when a select changes; only values the contract accepts are written.
 * - URL → form: only when the URL changes from outside (Back, a link, the screen choosing a default) — never
 *   when one of our own writes lands late — and never into the field that has focus: that field wins and
 *   the URL follows it.
 * - The rules are the contract's schema, fetched on first use or when the form gets the focus (`preload`):
 *   lazy-resolver.ts.
 */
export function useUrlForm<V extends TextFields>({
  loadSchema,
  urlValues,
  onCommit,
}: {
  loadSchema: () => Promise<z.ZodType>;
  urlValues: V;
  onCommit: (values: V) => void;
}) {
  const [rules] = useState(() => lazyZodResolver<V>(loadSchema, { blankAsAbsent: true }));
  const form = useForm<V>({
    resolver: rules.resolver,
    defaultValues: urlValues as DefaultValues<V>,
    mode: 'onChange',
  });
  // What the URL held when last seen, and the values this form wrote that the URL may still bring back: a
  // navigation lands after the render that started it, so an earlier write can arrive while the user types on.
  const seenUrl = useRef<V>(urlValues);
  const writes = useRef<V[]>([urlValues]);
  const onCommitRef = useRef(onCommit);
  onCommitRef.current = onCommit;
  const lastWrite = () => writes.current[writes.current.length - 1];

  // URL → form, for changes that did not come from this form.
  useEffect(() => {
    if (sameValues(seenUrl.current, urlValues)) return;
    seenUrl.current = urlValues;
    const own = writes.current.findIndex((written) => sameValues(written, urlValues));
    if (own >= 0) {
      writes.current = writes.current.slice(own); // this write and later ones may still arrive; earlier ones will not
      return;
    }
    // Back, a link, or the screen choosing a default: the fields follow, except the one the user is in.
    const current = form.getValues();
    const focused = (document.activeElement as HTMLElement | null)?.getAttribute('name');
    const next = { ...urlValues };
    let keptTyping = false;
    for (const name of Object.keys(urlValues) as (keyof V & string)[]) {
      if (focused === name && current[name] !== urlValues[name]) {
        next[name] = current[name];
        keptTyping = true;
      }
    }
    writes.current = [urlValues];
    form.reset(next, { keepDefaultValues: true });
    // The field is the user's: the URL follows what it holds.
    if (keptTyping) void commitRef.current();
  }, [urlValues, form]);

  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const commit = useCallback(async () => {
    clearTimeout(timer.current);
    const valid = await form.trigger();
    if (!valid) return;
    const values = form.getValues();
    if (sameValues(values, lastWrite())) return;
    writes.current = [...writes.current.slice(-9), { ...values }];
    onCommitRef.current(values);
  }, [form]);
  const commitRef = useRef(commit);
  commitRef.current = commit;

  // Every change restarts the typing pause; the pause ends in a commit.
  useEffect(() => {
    const { unsubscribe } = form.watch((_, { type }) => {
      if (type !== 'change') return; // resets from the URL are not user input
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void commit(), TYPING_DEBOUNCE_MS);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer.current);
    };
  }, [form, commit]);

  const submit = useCallback(
    (event?: { preventDefault(): void }) => {
      event?.preventDefault();
      void commit();
    },
    [commit],
  );

  // Whether what the fields hold is what the URL (and so the results) reflects, and whether it could be.
  const watched = useWatch({ control: form.control }) as V;
  const hasErrors = Object.keys(form.formState.errors).length > 0;
  const inSync = !hasErrors && sameValues({ ...urlValues, ...watched }, urlValues);

  return { form, commit: submit, commitNow: commit, inSync, hasErrors, preload: rules.load };
}
