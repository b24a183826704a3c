import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';

export interface ResultColumn<T> {
  /** The column's header, in the interface language; also its React key. */
  header: string;
  cell: (row: T) => ReactNode;
}

/** Under 600 px the results are cards, one per row (a 7-column table would scroll sideways on a phone). */
export function useIsPhone() {
  return useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
}

/** The results as a table, or as a list of cards on a phone; both named by `label`. */
export function ResultsView<T>({
  label,
  rows,
  columns,
  rowKey,
}: {
  label: string;
  rows: T[];
  columns: ResultColumn<T>[];
  rowKey: (row: T) => string;
}) {
  const isPhone = useIsPhone();
  if (isPhone)
    return (
      <Box component="ul" aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {rows.map((row) => (
          <Paper component="li" variant="outlined" key={rowKey(row)} sx={{ p: 1.5 }}>
            <Box
              component="dl"
              sx={{
                m: 0,
                display: 'grid',
                gridTemplateColumns: 'minmax(90px, auto) 1fr',
                columnGap: 1,
                rowGap: 0.5,
                overflowWrap: 'anywhere',
              }}
            >
              {columns.map((column) => (
                <Box key={column.header} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="caption" color="text.secondary" sx={{ pt: 0.25 }}>
                    {column.header}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                    {column.cell(row)}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Paper>
        ))}
      </Box>
    );
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.header}>{column.header}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={rowKey(row)} hover>
              {columns.map((column) => (
                <TableCell key={column.header}>{column.cell(row)}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
