import type { Deps } from '../../deps.js';
import { hasExpired, isoOf } from '../../domain/clock.js';
import { type PageQuery, type Pagination, paginate } from '../../domain/pagination.js';
import type { VirtualAccountRecord } from '../../store/records.js';
import type { VirtualAccountState, VirtualAccountView } from './schemas.js';

/** Whether the account takes a payment at `now`: a single-use one that took its payment is used, whatever the time. */
export function accountState(v: VirtualAccountRecord, now: number): VirtualAccountState {
  if (v.usedBy !== null) return 'used';
  return v.expiresAt !== null && hasExpired(v.expiresAt, now) ? 'expired' : 'open';
}

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
