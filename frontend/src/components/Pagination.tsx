import { pageCount, rangeLabel } from '@/lib/pagination';

interface PaginationProps {
  total: number;
  page: number;
  pageSize: number;
  shown: number;
  onPageChange: (page: number) => void;
  label: string;
}

export function Pagination({ total, page, pageSize, shown, onPageChange, label }: PaginationProps) {
  const pages = pageCount(total, pageSize);
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>
        Previous
      </button>
      <span aria-live="polite">
        {rangeLabel(total, (page - 1) * pageSize, shown)} · page {page} of {pages}
      </span>
      <button type="button" onClick={() => onPageChange(page + 1)} disabled={page >= pages}>
        Next
      </button>
    </nav>
  );
}
