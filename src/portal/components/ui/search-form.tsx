import type { FormEvent, ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import type { FilterFold } from './filter-fold';

/**
 * A screen's search form: its fields in a row (a column on a phone); `fold` is the phone's folding of them
 * (useFilterFold). Enter in a field submits at once instead of waiting for the typing pause.
 */
export function SearchForm({
  label,
  fold,
  onSubmit,
  onFocus,
  children,
}: {
  label: string;
  fold?: FilterFold['form'];
  onSubmit: (event: FormEvent) => void;
  onFocus: () => unknown;
  children: ReactNode;
}) {
  return (
    <Stack
      component="form"
      role="search"
      aria-label={label}
      {...fold}
      direction={{ xs: 'column', md: 'row' }}
      spacing={2}
      onSubmit={onSubmit}
      onFocus={onFocus}
      noValidate
    >
      {children}
      <button type="submit" hidden />
    </Stack>
  );
}
