import type { Deps } from '../../deps.js';
import { type PageQuery, type Pagination, paginate } from '../../domain/pagination.js';
import type { VirtualAccountRecord } from '../../store/records.js';
import type { VirtualAccountView } from './schemas.js';

/** A virtual account as the control API answers it: `expiresAt` as ISO 8601 text. */
function view(v: VirtualAccountRecord): VirtualAccountView {
  return { ...v, expiresAt: v.expiresAt === null ? null : new Date(v.expiresAt).toISOString() };
}

/** Every client's virtual accounts, newest first. */
export function listVirtualAccounts(
  deps: Pick<Deps, 'store'>,
  query: PageQuery,
): { data: VirtualAccountView[]; pagination: Pagination } {
  return paginate(deps.store.all('virtualAccounts').reverse(), query, view);
}
