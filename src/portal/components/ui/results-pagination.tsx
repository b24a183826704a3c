import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import TablePagination from '@mui/material/TablePagination';
import { useTranslation } from 'react-i18next';
import type { Pagination } from '../../../contract';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../contract/constants';
import { formatNumber } from '../../lib/i18n';
import { useIsPhone } from './results-view';

/** Page sizes a teller can pick, up to the API's maximum (spec §8: 1 to 1000). */
export const PAGE_SIZES = [10, 25, DEFAULT_PAGE_SIZE, 100, 250, 500, MAX_PAGE_SIZE];

export function ResultsPagination({
  pagination,
  onChange,
}: {
  pagination: Pagination;
  onChange: (change: { pageNumber?: number; pageSize?: number }) => void;
}) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const pageLabels = {
    first: t('results.firstPage'),
    last: t('results.lastPage'),
    next: t('results.nextPage'),
    previous: t('results.previousPage'),
  };
  return (
    <TablePagination
      component="div"
      count={pagination.totalItems}
      page={Math.max(0, Math.min(pagination.pageNumber - 1, Math.max(0, pagination.totalPages - 1)))}
      rowsPerPage={pagination.pageSize}
      rowsPerPageOptions={
        PAGE_SIZES.includes(pagination.pageSize)
          ? PAGE_SIZES
          : [...PAGE_SIZES, pagination.pageSize].sort((a, b) => a - b)
      }
      onPageChange={(_, page) => onChange({ pageNumber: page + 1 })}
      onRowsPerPageChange={(event) => onChange({ pageSize: Number(event.target.value), pageNumber: 1 })}
      labelRowsPerPage={t('results.perPage')}
      labelDisplayedRows={({ from, to, count }) =>
        count === -1
          ? t('results.displayedRowsMore', { from: formatNumber(from), to: formatNumber(to) })
          : t('results.displayedRows', { from: formatNumber(from), to: formatNumber(to), count: formatNumber(count) })
      }
      getItemAriaLabel={(type) => pageLabels[type]}
      showFirstButton
      showLastButton
      // On a phone the toolbar wraps instead of pushing the last-page button off the screen.
      sx={
        isPhone
          ? {
              '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', px: 0 },
              '& .MuiTablePagination-actions': { ml: 0 },
            }
          : undefined
      }
    />
  );
}

/** A page number past the last page: says so, and offers the way back. */
export function PastLastPage({
  pagination,
  onChange,
}: {
  pagination: Pagination;
  onChange: (change: { pageNumber: number }) => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="info"
      role="status"
      data-testid="results-empty"
      action={
        <Button color="inherit" size="small" onClick={() => onChange({ pageNumber: 1 })}>
          {t('results.goToFirst')}
        </Button>
      }
    >
      {t('results.pastEnd', {
        count: pagination.totalPages,
        page: formatNumber(pagination.pageNumber),
        total: formatNumber(pagination.totalItems),
        pages: formatNumber(pagination.totalPages),
        size: formatNumber(pagination.pageSize),
      })}
    </Alert>
  );
}

/** True when the answer is empty only because the page number is past the last page. */
export const isPastLastPage = (pagination: Pagination | undefined) =>
  Boolean(pagination && pagination.totalItems > 0 && pagination.pageNumber > pagination.totalPages);
