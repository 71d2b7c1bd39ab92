import {
  MAX_PAYOUT_ACCOUNTS,
  type PayoutAccountView,
  type PayoutInput,
  payoutAccountFields,
  TOO_MANY_PAYOUT_ACCOUNTS,
} from '../../contract/api/payouts.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { type PageQuery, type Pagination, paginate } from '../../domain/pagination.js';
import { project } from '../../domain/projection.js';
import type { BusinessRecord, PayoutRecord } from '../../domain/records.js';
import type { Tx } from '../../store/store.js';
import { recordAudit } from '../audits/service.js';
import { assertKnownBank } from '../transfers/service.js';

const view = (p: PayoutRecord): PayoutAccountView => project(p, payoutAccountFields);

function assertNotDuplicate(tx: Tx, clientId: string, input: PayoutInput, exceptId?: string): void {
  const same = tx
    .where('payouts', 'clientId', clientId)
    .some(
      (p) => p.id !== exceptId && p.accountNumber === input.accountNumber && p.bankCode === input.bankCode,
    );
  if (same) throw new ApiError(409, 'This payout account already exists');
}

/** A payout account of the business's client (payout accounts belong to the client, not to one business). */
function payoutOf(tx: Pick<Tx, 'get'>, business: BusinessRecord, id: string): PayoutRecord {
  const payout = tx.get('payouts', id);
  if (!payout || payout.clientId !== business.clientId) throw new ApiError(404, 'Payout account not found');
  return payout;
}

/** The client's payout accounts, the same list whichever of its businesses asks. */
export function listPayouts(
  deps: Deps,
  business: BusinessRecord,
  query: PageQuery,
): { data: PayoutAccountView[]; pagination: Pagination } {
  return paginate(deps.store.where('payouts', 'clientId', business.clientId), query, view);
}

export async function createPayout(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  input: PayoutInput,
): Promise<void> {
  assertKnownBank(deps, input.bankCode);
  await deps.store.mutate((tx) => {
    if (tx.countWhere('payouts', 'clientId', business.clientId) >= MAX_PAYOUT_ACCOUNTS) {
      throw new ApiError(400, TOO_MANY_PAYOUT_ACCOUNTS);
    }
    assertNotDuplicate(tx, business.clientId, input);
    const record: PayoutRecord = {
      id: tx.random().uuid(),
      clientId: business.clientId,
      ...input,
      createdAt: isoAt(deps.clock),
    };
    tx.put('payouts', record);
    recordAudit(tx, deps, actor, {
      // Client-wide, as the account is: every business of the client sees the entry.
      businessId: null,
      type: 'payout',
      action: 'create',
    });
  });
}

export async function updatePayout(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  id: string,
  input: PayoutInput,
): Promise<void> {
  assertKnownBank(deps, input.bankCode);
  await deps.store.mutate((tx) => {
    const payout = payoutOf(tx, business, id);
    assertNotDuplicate(tx, business.clientId, input, id);
    const record: PayoutRecord = { ...payout, ...input };
    tx.put('payouts', record);
    recordAudit(tx, deps, actor, {
      businessId: null,
      type: 'payout',
      action: 'update',
    });
  });
}

export async function deletePayout(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  id: string,
): Promise<void> {
  await deps.store.mutate((tx) => {
    const payout = payoutOf(tx, business, id);
    tx.delete('payouts', payout.id);
    recordAudit(tx, deps, actor, {
      businessId: null,
      type: 'payout',
      action: 'delete',
    });
  });
}
