import type { Deps } from '../../deps.js';
import { type PageQuery, type Pagination, paginate } from '../../domain/pagination.js';
import type { VirtualAccountRecord } from '../../store/records.js';

/** Every client's virtual accounts, newest first. */
export function listVirtualAccounts(
  deps: Pick<Deps, 'store'>,
  query: PageQuery,
): { data: VirtualAccountRecord[]; pagination: Pagination } {
  return paginate(deps.store.all('virtualAccounts').reverse(), query);
}
