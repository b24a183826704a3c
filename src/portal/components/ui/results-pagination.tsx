import TablePagination from '@mui/material/TablePagination';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Pagination } from '../../../contract';

/** Page sizes a teller can pick, up to the API's maximum (spec §8: 1 to 1000). */
export const PAGE_SIZES = [10, 25, DEFAULT_PAGE_SIZE, 100, 250, 500, MAX_PAGE_SIZE];

export function ResultsPagination({
  pagination,
  onChange,
}: {
  pagination: Pagination;
  onChange: (change: { pageNumber?: number; pageSize?: number }) => void;
}) {
  return (
    <TablePagination
      component="div"
      count={pagination.totalItems}
      page={Math.max(0, Math.min(pagination.pageNumber - 1, Math.max(0, pagination.totalPages - 1)))}
      rowsPerPage={pagination.pageSize}
      rowsPerPageOptions={PAGE_SIZES.includes(pagination.pageSize) ? PAGE_SIZES : [...PAGE_SIZES, pagination.pageSize].sort((a, b) => a - b)}
      onPageChange={(_, page) => onChange({ pageNumber: page + 1 })}
      onRowsPerPageChange={(event) => onChange({ pageSize: Number(event.target.value), pageNumber: 1 })}
      labelRowsPerPage="Per page"
      showFirstButton
      showLastButton
    />
  );
}
