import { describe, expect, it } from 'vitest';
import {
  controlPageQuery,
  MAX_CONTROL_PAGE,
  pageQuery,
  paginate,
  pagination,
} from '../../src/domain/pagination.js';

describe('pagination', () => {
  it.each([
    // totalCount, page, limit → lastPage, hasNext, next, hasPrev, prev
    { total: 0, page: 1, limit: 10, last: 1, hasNext: false, next: 0, hasPrev: false, prev: 0 },
    { total: 10, page: 1, limit: 10, last: 1, hasNext: false, next: 0, hasPrev: false, prev: 0 },
    { total: 11, page: 1, limit: 10, last: 2, hasNext: true, next: 2, hasPrev: false, prev: 0 },
    { total: 11, page: 2, limit: 10, last: 2, hasNext: false, next: 0, hasPrev: true, prev: 1 },
    { total: 30, page: 2, limit: 10, last: 3, hasNext: true, next: 3, hasPrev: true, prev: 1 },
    { total: 30, page: 5, limit: 10, last: 3, hasNext: false, next: 0, hasPrev: true, prev: 4 },
    { total: 1, page: 1, limit: 100, last: 1, hasNext: false, next: 0, hasPrev: false, prev: 0 },
  ])('$total records, page $page of $limit', ({ total, page, limit, last, hasNext, next, hasPrev, prev }) => {
    expect(pagination(total, { page, limit })).toEqual({
      totalCount: total,
      hasNextPage: hasNext,
      hasPreviousPage: hasPrev,
      nextPage: next,
      previousPage: prev,
      limit,
      lastPage: last,
    });
  });

  it('slices the page', () => {
    const items = Array.from({ length: 25 }, (_, i) => i);
    expect(paginate(items, { page: 3, limit: 10 }, (n) => n).data).toEqual([20, 21, 22, 23, 24]);
    expect(paginate(items, { page: 4, limit: 10 }, (n) => n).data).toEqual([]);
  });

  it("shows only the page's items through the view", () => {
    const items = Array.from({ length: 25 }, (_, i) => i);
    const seen: number[] = [];
    const page = paginate(items, { page: 2, limit: 10 }, (n) => {
      seen.push(n);
      return `#${n}`;
    });
    expect(page.data).toEqual(['#10', '#11', '#12', '#13', '#14', '#15', '#16', '#17', '#18', '#19']);
    expect(seen).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(page.pagination.totalCount).toBe(25);
  });

  it('query defaults and bounds: the bank API’s limit has no maximum, the control API’s has', () => {
    expect(pageQuery.parse({})).toEqual({ page: 1, limit: 10 });
    expect(pageQuery.parse({ page: '2', limit: '100' })).toEqual({ page: 2, limit: 100 });
    expect(pageQuery.parse({ limit: '100000' })).toEqual({ page: 1, limit: 100_000 });
    for (const bad of [{ page: '0' }, { page: '-1' }, { page: '1.5' }, { page: 'x' }, { limit: '0' }]) {
      expect(pageQuery.safeParse(bad).success).toBe(false);
      expect(controlPageQuery.safeParse(bad).success).toBe(false);
    }
    expect(controlPageQuery.parse({ limit: String(MAX_CONTROL_PAGE) }).limit).toBe(MAX_CONTROL_PAGE);
    expect(controlPageQuery.safeParse({ limit: String(MAX_CONTROL_PAGE + 1) }).success).toBe(false);
  });
});
