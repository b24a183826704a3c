import { z } from 'zod';

/**
 * Form fields hold '' when empty, while the contract's query schemas reject an empty parameter ("leave the
 * parameter out instead"). This turns blank fields into absent ones before the contract's schema runs, so
 * forms validate with exactly the server's rules.
 */
export function blankAsAbsent<S extends z.ZodType>(schema: S) {
  return z.preprocess(
    (values) =>
      Object.fromEntries(
        Object.entries(values as Record<string, unknown>).map(([name, value]) => [
          name,
          typeof value === 'string' && value.trim() === '' ? undefined : value,
        ]),
      ),
    schema,
  );
}
