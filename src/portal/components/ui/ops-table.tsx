import type { ReactNode } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';

/** A heading of a desk table: its text, or its content and alignment (numbers are right-aligned). */
export type OpsColumn = string | false | { label: ReactNode; align?: 'right' };

/** A column of numbers: its heading right-aligned, as its cells are. */
export const numberColumn = (label: string): OpsColumn => ({ label, align: 'right' });

/**
 * A desk list as a small table: one row of headings (a `false` one is left out), then the rows given. Focusable: a
 * keyboard can scroll a table wider or taller than the screen (axe, scrollable-region-focusable). With a
 * `maxHeight` its headings stay in view as it scrolls.
 */
export function OpsTable({
  label,
  labelledBy,
  containerLabel,
  maxHeight,
  columns,
  children,
}: {
  label?: string;
  labelledBy?: string;
  containerLabel?: string;
  maxHeight?: number;
  columns: readonly OpsColumn[];
  children: ReactNode;
}) {
  return (
    <TableContainer tabIndex={0} aria-label={containerLabel} sx={maxHeight ? { maxHeight } : undefined}>
      <Table size="small" stickyHeader={Boolean(maxHeight)} aria-label={label} aria-labelledby={labelledBy}>
        <TableHead>
          <TableRow>
            {columns.map((column, index) =>
              typeof column === 'string' ? (
                <TableCell key={index}>{column}</TableCell>
              ) : (
                column && (
                  <TableCell key={index} align={column.align}>
                    {column.label}
                  </TableCell>
                )
              ),
            )}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}
