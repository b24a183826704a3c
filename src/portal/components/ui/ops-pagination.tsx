import { useState } from 'react';
import TablePagination from '@mui/material/TablePagination';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/i18n';

/**
 * A desk list's page: `filter(set)` is a filter's setter that also goes back to the first page, `turn` is
 * OpsPagination's `onChange`.
 */
export function useOpsPage(pageSize: number) {
  const [page, setPage] = useState({ pageNumber: 1, pageSize });
  const firstPage = () => setPage((p) => ({ ...p, pageNumber: 1 }));
  return {
    page,
    firstPage,
    filter:
      <V,>(set: (value: V) => void) =>
      (value: V) => {
        set(value);
        firstPage();
      },
    turn: (next: { pageNumber?: number; pageSize?: number }) => setPage((p) => ({ ...p, ...next })),
  };
}

/** Paging of the desk's lists (their pages hold at most 500). */
export function OpsPagination({
  pagination,
  onChange,
}: {
  pagination: { pageNumber: number; pageSize: number; totalItems: number };
  onChange: (change: { pageNumber?: number; pageSize?: number }) => void;
}) {
  const { t } = useTranslation();
  return (
    <TablePagination
      component="div"
      count={pagination.totalItems}
      page={pagination.pageNumber - 1}
      rowsPerPage={pagination.pageSize}
      rowsPerPageOptions={[10, 25, 50, 100]}
      onPageChange={(_, page) => onChange({ pageNumber: page + 1 })}
      onRowsPerPageChange={(event) => onChange({ pageSize: Number(event.target.value), pageNumber: 1 })}
      labelRowsPerPage={t('results.perPage')}
      labelDisplayedRows={({ from, to, count }) =>
        t('results.displayedRows', { from: formatNumber(from), to: formatNumber(to), count: formatNumber(count) })
      }
      getItemAriaLabel={(type) =>
        ({
          first: t('results.firstPage'),
          last: t('results.lastPage'),
          next: t('results.nextPage'),
          previous: t('results.previousPage'),
        })[type]
      }
      showFirstButton
      showLastButton
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', px: 0 } }}
    />
  );
}
