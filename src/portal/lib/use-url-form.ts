import { useEffect, useRef } from 'react';
import { useForm, useWatch, type DefaultValues, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { blankAsAbsent } from './form';
import { useDebouncedValue } from './use-debounced-value';

type TextFields = Record<string, string>;

const sameValues = (a: TextFields, b: TextFields) => Object.keys({ ...a, ...b }).every((key) => (a[key] ?? '') === (b[key] ?? ''));

/**
 * A filter form whose truth is the URL. Typing is debounced (~300 ms) and, once the contract's schema
 * accepts the values, written to the URL (which is what the queries read). When the URL changes from
 * outside (Back, a shared link) the form follows it.
 */
export function useUrlForm<V extends TextFields>({ schema, urlValues, onCommit }: { schema: z.ZodType; urlValues: V; onCommit: (values: V) => void }) {
  const form = useForm<V>({
    resolver: zodResolver(blankAsAbsent(schema) as never) as unknown as Resolver<V>,
    defaultValues: urlValues as DefaultValues<V>,
    mode: 'onChange',
  });
  const committed = useRef<V>(urlValues);

  // URL → form: Back/forward or a link replaced the parameters.
  useEffect(() => {
    if (!sameValues(committed.current, urlValues)) {
      committed.current = urlValues;
      form.reset(urlValues);
    }
  }, [urlValues, form]);

  // form → URL, debounced; only values the contract accepts leave the form (the errors show otherwise).
  const commit = form.handleSubmit(() => {
    const values = form.getValues();
    if (sameValues(values, committed.current)) return;
    committed.current = { ...values };
    onCommit(values);
  });
  const watched = useWatch({ control: form.control }) as V;
  const debounced = useDebouncedValue(watched);
  useEffect(() => {
    if (!sameValues(debounced, committed.current)) void commit();
  }, [debounced]);

  return { form, commit };
}
