import { Fragment, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import type { CSSObject } from '@mui/material/styles';

type Row = { key: string; label: ReactNode; value: ReactNode };

/**
 * Labels and their values as a definition list in two columns: each value's test id is `<testIdPrefix>-<key>`.
 * `sx` adds the list's gaps and its terms' and values' looks (`& > dt`, `& > dd`).
 */
export function DetailList({ rows, testIdPrefix, sx }: { rows: Row[]; testIdPrefix: string; sx: CSSObject }) {
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(110px, auto) 1fr', ...sx }}>
      {rows.map((row) => (
        <Fragment key={row.key}>
          <dt>{row.label}</dt>
          <dd data-testid={`${testIdPrefix}-${row.key}`}>{row.value}</dd>
        </Fragment>
      ))}
    </Box>
  );
}
