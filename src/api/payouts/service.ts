import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { type PageQuery, type Pagination, paginate } from '../../domain/pagination.js';
import type { BusinessRecord, PayoutRecord } from '../../store/records.js';
import type { Tx } from '../../store/store.js';
import { recordAudit } from '../audits/service.js';
import { assertKnownBank } from '../transfers/service.js';
import type { PayoutAccountView, PayoutInput } from './schemas.js';

export const MAX_PAYOUT_ACCOUNTS = 3;

function view(p: PayoutRecord): PayoutAccountView {
  return {
    id: p.id,
    accountName: p.accountName,
    accountNumber: p.accountNumber,
    bankCode: p.bankCode,
    bankName: p.bankName,
    businessId: p.businessId,
    createdAt: p.createdAt,
  };
}

function assertNotDuplicate(tx: Tx, business: BusinessRecord, input: PayoutInput, exceptId?: string): void {
  const same = tx
    .where('payouts', 'businessId', business.id)
    .some(
      (p) => p.id !== exceptId && p.accountNumber === input.accountNumber && p.bankCode === input.bankCode,
    );
  if (same) throw new ApiError(409, 'This payout account already exists for the business');
}

function payoutOf(tx: Pick<Tx, 'get'>, business: BusinessRecord, id: string): PayoutRecord {
  const payout = tx.get('payouts', id);
  if (!payout || payout.businessId !== business.id) throw new ApiError(404, 'Payout account not found');
  return payout;
}

export function listPayouts(
  deps: Deps,
  business: BusinessRecord,
  query: PageQuery,
): { data: PayoutAccountView[]; pagination: Pagination } {
  return paginate(deps.store.where('payouts', 'businessId', business.id), query, view);
}

export async function createPayout(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  input: PayoutInput,
): Promise<PayoutAccountView> {
  assertKnownBank(deps, input.bankCode);
  const created = await deps.store.mutate((tx) => {
    if (tx.where('payouts', 'businessId', business.id).length >= MAX_PAYOUT_ACCOUNTS) {
      throw new ApiError(400, `A business can have at most ${MAX_PAYOUT_ACCOUNTS} payout accounts`);
    }
    assertNotDuplicate(tx, business, input);
    const record: PayoutRecord = {
      id: tx.random().uuid(),
      businessId: business.id,
      ...input,
      createdAt: isoAt(deps.clock),
    };
    tx.put('payouts', record);
    recordAudit(tx, deps, actor, {
      businessId: business.id,
      type: 'PAYOUT',
      action: `Added payout account ${input.accountNumber} (${input.bankName})`,
    });
    return record;
  });
  return view(created);
}

export async function updatePayout(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  id: string,
  input: PayoutInput,
): Promise<PayoutAccountView> {
  assertKnownBank(deps, input.bankCode);
  const updated = await deps.store.mutate((tx) => {
    const payout = payoutOf(tx, business, id);
    assertNotDuplicate(tx, business, input, id);
    const record: PayoutRecord = { ...payout, ...input };
    tx.put('payouts', record);
    recordAudit(tx, deps, actor, {
      businessId: business.id,
      type: 'PAYOUT',
      action: `Updated payout account ${input.accountNumber} (${input.bankName})`,
    });
    return record;
  });
  return view(updated);
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
      businessId: business.id,
      type: 'PAYOUT',
      action: `Deleted payout account ${payout.accountNumber} (${payout.bankName})`,
    });
  });
}
