import type { Pagination } from '../../src/domain/pagination.js';

/**
 * The pagination of page `page` of a list of `totalCount` records, `limit` a page, `lastPage` pages in all, as the
 * spec spells it: a next or previous page that does not exist is 0. `lastPage` is given rather than worked out, so
 * that a test still states it; the arithmetic itself is test/unit/pagination.test.ts's.
 */
export function pageAt(
  page: number,
  list: { totalCount: number; limit: number; lastPage: number },
): Pagination {
  const hasNextPage = page < list.lastPage;
  const hasPreviousPage = page > 1;
  return {
    totalCount: list.totalCount,
    hasNextPage,
    hasPreviousPage,
    nextPage: hasNextPage ? page + 1 : 0,
    previousPage: hasPreviousPage ? page - 1 : 0,
    limit: list.limit,
    lastPage: list.lastPage,
  };
}

/** The pagination of a list of `totalCount` records (0 or more) that fits the one page of `limit`. */
export function onePage(totalCount: number, limit: number): Pagination {
  return pageAt(1, { totalCount, limit, lastPage: 1 });
}
