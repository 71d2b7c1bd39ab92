import type { VirtualAccountView } from '../../contract/control/virtual-accounts.js';
import type { Deps } from '../../deps.js';
import { isoOf } from '../../domain/clock.js';
import { type PageQuery, type Pagination, paginate } from '../../domain/pagination.js';
import type { VirtualAccountRecord } from '../../domain/records.js';
import { accountState } from './service.js';

/** A virtual account as the control API answers it: `expiresAt` as ISO 8601 text, and its state now. */
function view(v: VirtualAccountRecord, now: number): VirtualAccountView {
  return {
    ...v,
    expiresAt: v.expiresAt === null ? null : isoOf(v.expiresAt),
    state: accountState(v, now),
  };
}

/** Every client's virtual accounts, newest first. */
export function listVirtualAccounts(
  deps: Pick<Deps, 'store' | 'clock'>,
  query: PageQuery,
): { data: VirtualAccountView[]; pagination: Pagination } {
  const now = deps.clock.now();
  return paginate(deps.store.all('virtualAccounts').reverse(), query, (v) => view(v, now));
}
