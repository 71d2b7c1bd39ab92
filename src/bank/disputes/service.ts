import { type DisputeQuery, type DisputeView, disputeFields } from '../../contract/api/disputes.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { type Pagination, paginate } from '../../domain/pagination.js';
import { project } from '../../domain/projection.js';
import type { BusinessRecord, DisputeRecord } from '../../domain/records.js';
import type { DisputeStatus } from '../../domain/statuses.js';
import { recordAudit } from '../audits/service.js';

const view = (d: DisputeRecord): DisputeView => project(d, disputeFields);

/** Opens a dispute on a transaction of the business; one open dispute per transaction. */
export async function createDispute(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  input: { transactionId: string; description: string },
): Promise<void> {
  await deps.store.mutate((tx) => {
    const transaction = tx.get('transactions', input.transactionId);
    if (!transaction || transaction.businessId !== business.id)
      throw new ApiError(404, 'Transaction not found');
    if (tx.where('disputes', 'transactionId', transaction.id).some((d) => d.status === 'open')) {
      throw new ApiError(409, 'An open dispute already exists for this transaction');
    }
    const record: DisputeRecord = {
      id: tx.random().uuid(),
      businessId: business.id,
      transactionId: transaction.id,
      description: input.description,
      status: 'open',
      dateCreated: isoAt(deps.clock),
      resolvedAt: null,
    };
    tx.put('disputes', record);
    recordAudit(tx, deps, actor, {
      businessId: business.id,
      type: 'dispute',
      action: 'create',
    });
  });
}

/** Newest first, filtered by transaction, status and a keyword of the description or the transaction id (docs). */
export function listDisputes(
  deps: Deps,
  business: BusinessRecord,
  query: DisputeQuery,
): { data: DisputeView[]; pagination: Pagination } {
  const keyword = query.keyword?.toLowerCase();
  const status = query.status?.toLowerCase();
  const matching = deps.store
    .where('disputes', 'businessId', business.id)
    .filter(
      (d) =>
        (query.transactionId === undefined || d.transactionId === query.transactionId) &&
        (status === undefined || d.status === status) &&
        (keyword === undefined ||
          d.description.toLowerCase().includes(keyword) ||
          d.transactionId.toLowerCase().includes(keyword)),
    )
    .reverse();
  return paginate(matching, query, view);
}

export function getDispute(deps: Deps, business: BusinessRecord, id: string): DisputeView {
  const dispute = deps.store.get('disputes', id);
  if (!dispute || dispute.businessId !== business.id) throw new ApiError(404, 'Dispute not found');
  return view(dispute);
}

/** The operator's decision (control API): an open dispute becomes resolved or rejected. */
export async function decideDispute(
  deps: Deps,
  id: string,
  status: Exclude<DisputeStatus, 'open'>,
): Promise<DisputeView> {
  const decided = await deps.store.mutate((tx) => {
    const dispute = tx.get('disputes', id);
    if (!dispute) throw new ApiError(404, 'Dispute not found');
    if (dispute.status !== 'open') throw new ApiError(409, `Dispute is already ${dispute.status}`);
    const record: DisputeRecord = { ...dispute, status, resolvedAt: isoAt(deps.clock) };
    tx.put('disputes', record);
    return record;
  });
  return view(decided);
}
