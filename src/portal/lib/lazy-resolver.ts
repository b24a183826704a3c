import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form resolver that checks the values with a contract schema fetched on first use: the schemas
 * (zod, ~25 KB compressed) are not part of the first screen's download on a teller's slow link, only of the
 * first validation. `load` starts the fetch early; a form calls it when it gets the focus, so the rules are
 * there by the time the teller's typing pause ends.
 *
 * Degraded: when the code cannot be fetched (the link gone), the values pass unchecked this time — the API
 * checks every parameter anyway and its 400 is shown — and the next validation tries the fetch again.
 */
export function lazyZodResolver<I extends FieldValues, O = I>(
  loadSchema: () => Promise<z.ZodType>,
  { blankAsAbsent = false }: { blankAsAbsent?: boolean } = {},
) {
  let loading: Promise<Resolver<I, unknown, O>> | undefined;
  const load = () =>
    (loading ??= Promise.all([loadSchema(), import('./form'), import('@hookform/resolvers/zod')])
      .then(
        ([schema, form, { zodResolver }]) =>
          zodResolver((blankAsAbsent ? form.blankAsAbsent(schema) : schema) as never) as unknown as Resolver<
            I,
            unknown,
            O
          >,
      )
      .catch((error: unknown) => {
        loading = undefined;
        throw error;
      }));
  const resolver: Resolver<I, unknown, O> = async (values, context, options) => {
    let check: Resolver<I, unknown, O>;
    try {
      check = await load();
    } catch {
      return { values: values as unknown as O, errors: {} };
    }
    return check(values, context, options);
  };
  return { resolver, load: () => void load().catch(() => undefined) };
}
