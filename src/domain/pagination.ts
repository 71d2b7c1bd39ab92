import * as z from 'zod';

/**
 * `page` ≥ 1 (default 1) and `limit` ≥ 1 (default 10), as every list of the bank's API takes them: neither the spec
 * nor the docs give `limit` a maximum, so a page may hold the whole list.
 */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).default(10),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** The largest page a list of the control API gives: its answers stay small however large the state grows. */
export const MAX_CONTROL_PAGE = 100;

/** `page` and `limit` of a control API list: `limit` 1..`MAX_CONTROL_PAGE`. */
export const controlPageQuery = pageQuery.extend({
  limit: z.coerce.number().int().min(1).max(MAX_CONTROL_PAGE).default(10),
});

/** The largest page of a control answer a test usually reads whole (a ledger, the outbox, the credentials). */
export const MAX_LONG_PAGE = 1000;

/**
 * `page` and `limit` of a control answer a test usually reads whole: 100 by default, at most `MAX_LONG_PAGE` (as
 * the request journal), so that one call stays small however large the state grows.
 */
export const longPageQuery = pageQuery.extend({
  limit: z.coerce.number().int().min(1).max(MAX_LONG_PAGE).default(100),
});

export interface Pagination {
  totalCount: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  nextPage: number;
  previousPage: number;
  limit: number;
  lastPage: number;
}

/** The spec's pagination object for a page of `totalCount` records; absent pages are 0. */
export function pagination(totalCount: number, { page, limit }: PageQuery): Pagination {
  const lastPage = Math.max(1, Math.ceil(totalCount / limit));
  const hasNextPage = page < lastPage;
  const hasPreviousPage = page > 1;
  return {
    totalCount,
    hasNextPage,
    hasPreviousPage,
    nextPage: hasNextPage ? page + 1 : 0,
    previousPage: hasPreviousPage ? page - 1 : 0,
    limit,
    lastPage,
  };
}

/** One page of `items`, each shown through `view` (only the page's items are), and its pagination object. */
export function paginate<T, V>(
  items: readonly T[],
  query: PageQuery,
  view: (item: T) => V,
): { data: V[]; pagination: Pagination } {
  const start = (query.page - 1) * query.limit;
  return {
    data: items.slice(start, start + query.limit).map((item) => view(item)),
    pagination: pagination(items.length, query),
  };
}
