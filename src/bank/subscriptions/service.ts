import type {
  CreateSubscriptionInput,
  NewSubscription,
  SubscriptionQuery,
  SubscriptionView,
} from '../../contract/api/subscriptions.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { type Pagination, paginate } from '../../domain/pagination.js';
import type { BusinessRecord, SubscriptionRecord } from '../../domain/records.js';
import type { Tx } from '../../store/store.js';
import { recordAudit } from '../audits/service.js';

export function subscriptionView(s: SubscriptionRecord): SubscriptionView {
  return {
    id: s.id,
    packageName: s.packageName,
    amount: String(s.amount),
    interval: s.interval,
    businessId: s.businessId,
    clientId: s.clientId,
  };
}

/** Whether `plan` passes the list's filters: exact ones case-insensitive, `keyword` a part of any of the three. */
function matches(plan: SubscriptionRecord, query: SubscriptionQuery): boolean {
  const same = (wanted: string | undefined, value: string) =>
    wanted === undefined || wanted.toLowerCase() === value.toLowerCase();
  const amount = String(plan.amount);
  const keyword = query.keyword?.toLowerCase();
  return (
    same(query.packageName, plan.packageName) &&
    same(query.interval, plan.interval) &&
    same(query.amount, amount) &&
    (keyword === undefined ||
      [plan.packageName, plan.interval, amount].some((field) => field.toLowerCase().includes(keyword)))
  );
}

/** The business's subscription plans, in the order they were made, filtered. */
export function listSubscriptions(
  deps: Pick<Deps, 'store'>,
  business: BusinessRecord,
  query: SubscriptionQuery,
): { data: SubscriptionView[]; pagination: Pagination } {
  const plans = deps.store.where('subscriptions', 'businessId', business.id).filter((s) => matches(s, query));
  return paginate(plans, query, subscriptionView);
}

/** A plan record of a business, made now with the transaction's next id. */
function planRecord(
  tx: Tx,
  deps: Pick<Deps, 'clock'>,
  business: BusinessRecord,
  plan: Pick<SubscriptionRecord, 'packageName' | 'amount' | 'interval'>,
): SubscriptionRecord {
  return {
    id: tx.random().uuid(),
    clientId: business.clientId,
    businessId: business.id,
    packageName: plan.packageName,
    amount: plan.amount,
    interval: plan.interval,
    createdAt: isoAt(deps.clock),
  };
}

/**
 * A new plan of a business (control API): as the bank's `POST /clients/business/subscriptions` makes one, for any
 * business by its id and without an audit entry, since no member of the business made it.
 */
export async function addSubscription(
  deps: Deps,
  businessId: string,
  input: NewSubscription,
): Promise<SubscriptionView> {
  const created = await deps.store.mutate((tx) => {
    const business = tx.get('businesses', businessId);
    if (!business) throw new ApiError(404, 'Business not found');
    const record = planRecord(tx, deps, business, input);
    tx.put('subscriptions', record);
    return record;
  });
  return subscriptionView(created);
}

/** A new plan of the caller's business (`POST /clients/business/subscriptions`), listed from then on. */
export async function createSubscription(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  input: CreateSubscriptionInput,
): Promise<void> {
  await deps.store.mutate((tx) => {
    const plan = {
      packageName: input.packageName ?? '',
      amount: input.amount,
      interval: input.interval ?? '',
    };
    tx.put('subscriptions', planRecord(tx, deps, business, plan));
    recordAudit(tx, deps, actor, { businessId: business.id, type: 'subscription', action: 'create' });
  });
}
