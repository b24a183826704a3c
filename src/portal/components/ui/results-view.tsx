import { Fragment, useDeferredValue, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
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

const NO_ROWS: never[] = [];

/**
 * The results as a table, or as a list of cards on a phone; both named by `label`.
 *
 * The rows are drawn in a transition (useDeferredValue): React renders them in slices of a few milliseconds
 * between which the browser answers the teller's keys and clicks, instead of one long task of the main thread
 * (hundreds of milliseconds for 50 rows on a branch PC). Cells are plain elements styled once by their table or
 * list, not one styled component each.
 */
export function ResultsView<T>({
  label,
  rows,
  columns,
  rowKey,
  footer,
}: {
  label: string;
  rows: T[];
  columns: ResultColumn<T>[];
  rowKey: (row: T) => string;
  /**
   * Drawn under the rows once the first rows are (e.g. the bottom pagination): it never sits where the rows are
   * about to push it. From then on it stays, so a button just clicked in it keeps the focus while a page changes.
   */
  footer?: ReactNode;
}) {
  const isPhone = useIsPhone();
  const shown = useDeferredValue(rows, NO_ROWS as T[]);
  const [rowsDrawn, setRowsDrawn] = useState(false);
  if (!rowsDrawn && shown === rows) setRowsDrawn(true);
  const view = isPhone ? (
    <CardList label={label} rows={shown} columns={columns} rowKey={rowKey} />
  ) : (
    <RowTable label={label} rows={shown} columns={columns} rowKey={rowKey} />
  );
  return (
    <>
      {view}
      {rowsDrawn && footer}
    </>
  );
}

interface ViewProps<T> {
  label: string;
  rows: T[];
  columns: ResultColumn<T>[];
  rowKey: (row: T) => string;
}

function CardList<T>({ label, rows, columns, rowKey }: ViewProps<T>) {
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
              '& > dt': { typography: 'caption', color: 'text.secondary', pt: 0.25 },
              '& > dd': { typography: 'body2', m: 0 },
            }}
          >
            {columns.map((column) => (
              <Fragment key={column.header}>
                <dt>{column.header}</dt>
                <dd>{column.cell(row)}</dd>
              </Fragment>
            ))}
          </Box>
        </Paper>
      ))}
    </Box>
  );
}

function RowTable<T>({ label, rows, columns, rowKey }: ViewProps<T>) {
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        aria-label={label}
        sx={{
          '& > tbody > tr > td': {
            typography: 'body2',
            px: 2,
            py: '6px',
            borderBottom: 1,
            borderColor: 'divider',
            verticalAlign: 'top',
          },
          '& > tbody > tr:hover': { bgcolor: 'action.hover' },
        }}
      >
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.header}>{column.header}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header}>{column.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </TableContainer>
  );
}
