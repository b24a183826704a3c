import { useCallback, useEffect, useRef } from 'react';
import { useForm, useWatch, type DefaultValues, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { blankAsAbsent } from './form';

/** About 300 ms after the last key: long enough to skip the keystrokes of one word, short enough to feel immediate. */
export const TYPING_DEBOUNCE_MS = 300;

type TextFields = Record<string, string>;

const sameValues = (a: TextFields, b: TextFields) => Object.keys({ ...a, ...b }).every((key) => (a[key] ?? '') === (b[key] ?? ''));

/**
 * A filter form whose results follow the URL, and whose fields belong to the user (issue #14).
 *
 * - form → URL: ~300 ms after the last key (a timer restarted by each change, not a render-driven debounce),
 *   at once on Enter or when a select changes; only values the contract accepts are written.
 * - URL → form: only when the URL changes from outside (Back, a link, the screen choosing a default) — never
 *   because a render saw the URL before our own write landed — and never into the field that has focus
 *   while the user has typed into it since the last write.
 */
export function useUrlForm<V extends TextFields>({
  schema,
  urlValues,
  onCommit,
  normalize = (values) => values,
}: {
  schema: z.ZodType;
  urlValues: V;
  onCommit: (values: V) => void;
  /** Turns what the fields hold into what is written (e.g. trims pasted codes). */
  normalize?: (values: V) => V;
}) {
  const form = useForm<V>({
    resolver: zodResolver(blankAsAbsent(schema) as never) as unknown as Resolver<V>,
    defaultValues: urlValues as DefaultValues<V>,
    mode: 'onChange',
  });
  // What the URL held when last seen, and what this form last wrote to it.
  const seenUrl = useRef<V>(urlValues);
  const written = useRef<V>(urlValues);
  const onCommitRef = useRef(onCommit);
  onCommitRef.current = onCommit;
  const normalizeRef = useRef(normalize);
  normalizeRef.current = normalize;

  // URL → form, for changes that did not come from this form.
  useEffect(() => {
    if (sameValues(seenUrl.current, urlValues)) return;
    seenUrl.current = urlValues;
    if (sameValues(written.current, urlValues)) return; // our own write arriving
    const current = form.getValues();
    const focused = document.activeElement as HTMLElement | null;
    const next = { ...urlValues };
    for (const name of Object.keys(urlValues) as (keyof V & string)[]) {
      const typing = focused?.getAttribute('name') === name && current[name] !== written.current[name];
      if (typing) next[name] = current[name];
    }
    written.current = urlValues;
    form.reset(next, { keepDefaultValues: true });
  }, [urlValues, form]);

  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const commit = useCallback(async () => {
    clearTimeout(timer.current);
    const valid = await form.trigger();
    if (!valid) return;
    const values = normalizeRef.current(form.getValues());
    if (sameValues(values, written.current)) return;
    written.current = { ...values };
    onCommitRef.current(values);
  }, [form]);

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
  const inSync = !hasErrors && sameValues(normalize({ ...urlValues, ...watched }), urlValues);

  return { form, commit: submit, commitNow: commit, inSync, hasErrors };
}
